import { upcast } from '@nudge/contracts';
import { type Keyring, openPersonalFields } from '../privacy/keyring';
import type { Doc } from '../store/types';
import type { EventEnvelope } from './types';

/** Collections of the event mechanism (one set per service store). */
export const EVENTS = 'events';
export const EVENTS_META = 'events_meta';
export const PROJECTION_CHECKPOINTS = 'projection_checkpoints';
export const PROCESSED_EVENTS = 'processed_events';
/** The commits' pending rows: one per commit the relay has not published, one per commit some projection has not
 * applied (see PendingDoc). */
export const PENDING = 'events_pending';

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
};

/**
 * A commit's pending row in PENDING, of kind `pub` (until the relay published it) or `proj` (until every projection
 * applied it): written with the commit (before it, or in the same group commit on the embedded store) and deleted
 * once the work is done, so marking a commit never rewrites the commit document. `_id` is the kind and the seq,
 * zero-padded (pendingId): each kind's rows sort in commit order on their primary key. A row whose commit does not exist with its seq
 * is an orphan (the commit's insert clashed, or never happened: a crash between the two writes, MongoDB only);
 * the readers delete it (one whose commit is missing only after ORPHAN_MS: its insert may still be under way).
 */
export type PendingDoc = Doc & {
  seq: number;
  /** The commit's _id. */
  commit: string;
  stream: string;
  toVersion: number;
  /** When it was written (ms since the epoch, the writer's clock). */
  at: number;
  /** `proj` rows only: the projections that did apply the commit (one failed, or a gap was filled). */
  projectedBy?: string[];
  /**
   * The row of several commits appended together (one appendMany; see groupRowOf): every commit it stands for, in seq
   * order (the first is the one the other fields describe). Absent: the row stands for its commit alone.
   */
  commits?: PendingEntry[];
};

/** A commit a pending row stands for. */
export type PendingEntry = { commit: string; seq: number; stream: string; toVersion: number };

/** The commits a pending row stands for, in seq order. */
export const entriesOf = (row: PendingDoc): PendingEntry[] =>
  row.commits ?? [{ commit: row.commit, seq: row.seq, stream: row.stream, toVersion: row.toVersion }];

/** The rows of one commit each that a row stands for (a row of one commit: itself), with its projectedBy. */
export const singleRowsOf = (row: PendingDoc, kind: PendingKind): PendingDoc[] => {
  if (!row.commits) return [row];
  const { commits: _, ...base } = row;
  return row.commits.map((entry) => ({ ...base, _id: pendingId(kind, entry.seq), ...entry }));
};

/** A pending row older than this whose commit does not exist is deleted (its commit's insert is given up on). */
export const ORPHAN_MS = 60 * 60_000;

/** What a pending row waits for: the relay (`pub`) or the projections (`proj`). */
export type PendingKind = 'pub' | 'proj';

/** The pending row's _id of a kind and seq: the seq zero-padded, so a kind's primary key order is commit order. */
export const pendingId = (kind: PendingKind, seq: number): string =>
  `${kind}:${String(seq).padStart(16, '0')}`;

/** The filter of one kind's rows, those after `after` (an _id of that kind) when given: a range of the primary key. */
export const pendingRange = (kind: PendingKind, after?: string): { _id: { $gt: string; $lt: string } } => ({
  _id: { $gt: after ?? `${kind}:`, $lt: `${kind};` },
});

export const pendingOf = (commit: CommitDoc, kind: PendingKind, at: number): PendingDoc => ({
  _id: pendingId(kind, commit.seq),
  seq: commit.seq,
  commit: commit._id,
  stream: commit.stream,
  toVersion: commit.toVersion,
  at,
});

/**
 * The row of commits appended together (seq order): one row for all of them (one insert, one delete), named by the
 * first. The relay publishes them all before it deletes its `pub` row; the projections' `proj` row is written so only
 * for commits they apply together, and split into rows of one commit (singleRowsOf) before any is applied otherwise.
 * A single commit's row is pendingOf's.
 */
export const groupRowOf = (commits: CommitDoc[], kind: PendingKind, at: number): PendingDoc => {
  const row = pendingOf(commits[0] as CommitDoc, kind, at);
  if (commits.length > 1)
    row.commits = commits.map((c) => ({
      commit: c._id,
      seq: c.seq,
      stream: c.stream,
      toVersion: c.toVersion,
    }));
  return row;
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

/**
 * Events with their personal fields opened (readable, or blank where the reader is erased): what projections, rebuilds
 * and command handlers see. The relay, the history route and the analytics store keep them sealed.
 */
export const openEvents = async (keyring: Keyring, events: EventEnvelope[]): Promise<EventEnvelope[]> => {
  const datas = await openPersonalFields(
    keyring,
    events.map((e) => e.data),
  );
  return events.map((event, i) => (datas[i] === event.data ? event : { ...event, data: datas[i] }));
};

/** A commit's events, opened (see openEvents). */
export const openedEventsOf = (keyring: Keyring, commit: CommitDoc): Promise<EventEnvelope[]> =>
  openEvents(keyring, eventsOf(commit));
