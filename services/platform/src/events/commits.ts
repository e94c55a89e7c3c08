import { upcast } from '@nudge/contracts';
import type { Doc } from '../store/types';
import type { EventEnvelope } from './types';

/** Collections of the event mechanism (one set per service store). */
export const EVENTS = 'events';
export const EVENTS_META = 'events_meta';
export const PROJECTION_CHECKPOINTS = 'projection_checkpoints';
export const PROCESSED_EVENTS = 'processed_events';

/**
 * An event as stored inside a commit. `data` is kept as its JSON text: the bus carries JSON, so live
 * projections, rebuilds and consumers all see exactly the same value, and field names that document
 * stores refuse (containing '.' or starting with '$', e.g. a map keyed by e-mail address) are safe.
 */
export type StoredEvent = Omit<EventEnvelope, 'data'> & { dataJson: string };

/**
 * One document per commit (one append). `_id` = `${stream}@${fromVersion}` is the optimistic lock:
 * two commands that read the stream at the same version write the same `_id`, the second one fails.
 */
export type CommitDoc = Doc & {
  stream: string;
  /** The stream's version before this commit (the append's expectedVersion). */
  fromVersion: number;
  /** The stream's version after this commit. */
  toVersion: number;
  events: StoredEvent[];
  committedAt: string;
  /** Global commit order (from a counter; may have gaps). */
  seq: number;
  /** Set by the relay once every event of the commit was accepted by the bus. */
  published: boolean;
  /** Set once every registered projection applied the commit. */
  projected: boolean;
  /**
   * While `projected` is false: the projections that did apply the commit (one failed, or a later commit of the
   * stream filled the gap), so catch-up applies it to the others only. Absent on a commit projected at once.
   */
  projectedBy?: string[];
};

export const commitId = (stream: string, fromVersion: number): string => `${stream}@${fromVersion}`;

export const toStored = (event: EventEnvelope): StoredEvent => {
  const { data, ...rest } = event;
  return { ...rest, meta: { ...rest.meta }, dataJson: JSON.stringify(data ?? null) };
};

/** A stored event as its envelope, brought to its type's newest version (contracts' UPCASTERS; none: as stored). */
export const fromStored = (event: StoredEvent): EventEnvelope => {
  const { dataJson, ...rest } = event;
  const data: unknown = JSON.parse(dataJson);
  return { ...rest, meta: { ...rest.meta }, ...upcast(rest.type, data) };
};

export const eventsOf = (commit: CommitDoc): EventEnvelope[] => commit.events.map(fromStored);
