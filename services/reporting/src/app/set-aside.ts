import { createHash } from 'node:crypto';
import type { DocumentStore } from '@nudge/platform';

/** Where reporting's inserts into ClickHouse come from (the label of their metrics and of what they set aside). */
export type IngestSource = 'bus' | 'web' | 'backfill';
export const INGEST_SOURCES: readonly IngestSource[] = ['bus', 'web', 'backfill'];

/** The collection of records set aside (reporting's document store). */
export const SET_ASIDE = 'analytics_set_aside';

interface SetAsideDoc {
  /** `<source>:<row id>`, or `<source>:line-<hash>` for a spool line that is not a row: a repeat overwrites. */
  _id: string;
  source: IngestSource;
  /** Why: the text check's finding, or the engine's refusal. */
  error: string;
  /** The record as it came (a row's JSON, or the spool line), to look at or to load by hand once fixed. */
  record: string;
  at: string;
}

/** A record to set aside: an `events` row (it has an id) or a spool line that is not one. */
export type SetAsideRecord = { id: string; text: string } | { id?: undefined; text: string };

const ERROR_MAX = 2_000;

/**
 * Records that no insert will ever take (text that is not valid Unicode, a row the engine refuses on its own, a spool
 * line that is not JSON), kept with their error in reporting's document store instead of blocking the records behind
 * them. They are counted by source for /readyz and the nudge_set_aside_records metric.
 */
export function createSetAside(store: DocumentStore, clock: () => Date = () => new Date()) {
  const records = store.collection<SetAsideDoc>(SET_ASIDE);
  return {
    async put(source: IngestSource, list: readonly SetAsideRecord[], error: string): Promise<void> {
      const at = clock().toISOString();
      const why = error.toWellFormed().slice(0, ERROR_MAX);
      for (const { id, text } of list) {
        const key = id ?? `line-${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
        const _id = `${source}:${key}`;
        await records.replaceOne(
          { _id },
          { _id, source, error: why, record: text.toWellFormed(), at },
          { upsert: true },
        );
      }
    },
    /** How many records each source set aside. */
    async counts(): Promise<{ total: number; sources: Record<IngestSource, number> }> {
      const sources = {} as Record<IngestSource, number>;
      let total = 0;
      for (const source of INGEST_SOURCES) {
        sources[source] = await records.countDocuments({ source });
        total += sources[source];
      }
      return { total, sources };
    },
    /** The records set aside, newest first (for tests and operators). */
    list: (source?: IngestSource) =>
      records.find(source ? { source } : {}, { sort: { at: -1 } }) as Promise<SetAsideDoc[]>,
  };
}

export type SetAside = ReturnType<typeof createSetAside>;
