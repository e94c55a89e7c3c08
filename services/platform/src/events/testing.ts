import { pino } from 'pino';
import type { DocumentStore } from '../store/types';
import { until } from '../testing/until';
import { entriesOf, PENDING, type PendingDoc, type PendingKind, pendingRange } from './commits';
import type { EventEnvelope, Projection } from './types';

/** Test helpers for the event mechanism's own suites (not part of the public API). */

export const silentLog = () => pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** Waits until check() holds; fails after timeoutMs. Never a fixed sleep. */
export const waitFor = (check: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'condition') =>
  until(check, what, timeoutMs, 10);

type CounterDoc = { _id: string; count: number; lastVersion: number; types: string[] };

/**
 * A small read model: per stream, how many events it saw and their types. Deliberately NOT idempotent
 * ($inc), so any double application by the runner shows up in the counts.
 */
export function counterProjection(
  store: DocumentStore,
  name = 'test.counter',
  collectionName = 'counters',
): Projection & { failNext(times?: number): void; applied: number } {
  const counters = store.collection<CounterDoc>(collectionName);
  let failures = 0;
  const projection = {
    name,
    applied: 0,
    failNext(times = 1) {
      failures = times;
    },
    async apply(event: EventEnvelope) {
      if (failures > 0) {
        failures -= 1;
        throw new Error('injected projection failure');
      }
      projection.applied += 1;
      await counters.updateOne(
        { _id: event.stream },
        { $inc: { count: 1 }, $set: { lastVersion: event.version }, $push: { types: event.type } },
        { upsert: true },
      );
    },
    async reset() {
      await counters.drop();
    },
  };
  return projection;
}

export const readCounters = async (store: DocumentStore, collectionName = 'counters') =>
  (await store.collection<CounterDoc>(collectionName).find({}, { sort: { _id: 1 } })).map(
    ({ _id, count, lastVersion, types }) => ({
      _id,
      count,
      lastVersion,
      types,
    }),
  );

/** The commits (their _ids, in seq order) that still have a pending row: not published, not projected by all. */
export async function pendingCommits(
  store: DocumentStore,
): Promise<{ unpublished: string[]; unprojected: string[] }> {
  const ids = async (kind: PendingKind) =>
    (await store.collection<PendingDoc>(PENDING).find(pendingRange(kind), { sort: { _id: 1 } })).flatMap(
      (row) => entriesOf(row).map((entry) => entry.commit),
    );
  return { unpublished: await ids('pub'), unprojected: await ids('proj') };
}
