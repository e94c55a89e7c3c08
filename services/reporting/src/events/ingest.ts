import type { BusMessage, EventBus, Logger, Subscription } from '@nudge/platform';
import {
  AppError,
  EngineUnavailableError,
  errorText,
  illFormedTextAt,
  illFormedTextMessage,
  processMetrics,
  topicFor,
  withBatchSpan,
} from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import type { IngestSource, SetAside } from '../app/set-aside';
import { Envelope, type EventRow, toEventRow } from '../domain/rows';

export type { IngestSource } from '../app/set-aside';

export const REPORTING_GROUP = 'reporting';
/** The consumer group of the admin's site settings that reporting follows (the web telemetry's retention). */
export const REPORTING_SETTINGS_GROUP = 'reporting-settings';
/** Every service's domain events (the reminder facts ride on engagement's topic). */
export const INGESTED_TOPICS = ['auth', 'content', 'engagement', 'billing'].map(topicFor);
export const BATCH_MAX = 10_000;
export const BATCH_WAIT_MS = 1_000;
/**
 * Kafka answers a fetch once it has this much (or BATCH_WAIT_MS passed): with Kafka's default of one byte every
 * fetch returns the few events that arrived since the last, and each becomes a small insert into the events table
 * and every materialized view on it; ClickHouse wants few large inserts.
 */
export const BATCH_MIN_BYTES = 1024 * 1024;

/** Appends rows to `events`. A repeat of an event id is harmless: ReplacingMergeTree folds it, counts use uniqExact(id). */
export async function writeEvents(
  analytics: AnalyticsStore,
  rows: EventRow[],
  source: IngestSource = 'bus',
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_MAX) {
    const batch = rows.slice(i, i + BATCH_MAX);
    await measuredInsert(source, batch.length, () => analytics.insert('events', batch));
  }
}

/** One insert into `events`, counted in the analytics batch metrics (rows, seconds) by source. */
export async function measuredInsert(
  source: IngestSource,
  rows: number,
  insert: () => Promise<void>,
): Promise<void> {
  const metrics = processMetrics();
  const labels = { service: 'reporting', source };
  const done = metrics.analyticsFlushSeconds.startTimer(labels);
  await insert();
  done();
  metrics.analyticsBatchRows.observe(labels, rows);
}

/** The rows to insert and what is wrong with the ones that cannot be. */
export type RowCheck = { rows: EventRow[]; bad: { row: EventRow; error: string }[] };

/** Splits rows into those whose text is valid Unicode and those that are not (ClickHouse would refuse or corrupt them). */
export function checkRows(rows: readonly EventRow[]): RowCheck {
  const checked: RowCheck = { rows: [], bad: [] };
  for (const row of rows) {
    const at = illFormedTextAt(row);
    if (at === undefined) checked.rows.push(row);
    else checked.bad.push({ row, error: illFormedTextMessage(at, 'the row') });
  }
  return checked;
}

/**
 * Inserts rows into `events`, setting aside what can never go in, so a bad record never blocks those behind it: rows
 * whose text is not valid Unicode are set aside before the engine sees them; a batch the engine refuses while it is
 * up is split in halves until the rows it refuses on their own are found, and those are set aside with the engine's
 * error. When the engine is down (it does not answer a ping), the error is thrown: nothing is set aside, the caller
 * retries the whole batch later (a repeat of an id is harmless).
 */
export function createEventWriter(deps: { analytics: AnalyticsStore; setAside: SetAside; log: Logger }) {
  const { analytics, setAside, log } = deps;
  const engineUp = (err: unknown) =>
    err instanceof AppError && err.code === 'unavailable'
      ? Promise.resolve(false)
      : analytics.ping().then(
          () => true,
          () => false,
        );
  const put = async (source: IngestSource, bad: { row: EventRow; error: string }[]) => {
    for (const { row, error } of bad) {
      await setAside.put(source, [{ id: row.id, text: JSON.stringify(row) }], error);
      log.error({ source, id: row.id, error }, 'reporting: a row was set aside; the rows behind it go on');
    }
  };
  const insert = async (rows: EventRow[], source: IngestSource): Promise<void> => {
    try {
      await writeEvents(analytics, rows, source);
    } catch (err) {
      // The engine is down: the caller waits with the whole batch (the bus pauses the consumer: no split, no dead
      // letter) and tries it again once the engine answers.
      if (!(await engineUp(err)))
        throw new EngineUnavailableError(`ClickHouse does not answer: ${errorText(err)}`, { cause: err });
      if (rows.length === 1) return put(source, [{ row: rows[0] as EventRow, error: errorText(err) }]);
      const middle = Math.ceil(rows.length / 2);
      await insert(rows.slice(0, middle), source);
      await insert(rows.slice(middle), source);
    }
  };
  return {
    /** Inserts the rows that can go in; sets aside the others. */
    async write(rows: readonly EventRow[], source: IngestSource): Promise<void> {
      const checked = checkRows(rows);
      await put(source, checked.bad);
      if (checked.rows.length > 0) await insert(checked.rows, source);
    },
    /** Sets aside records that are not rows at all (a message or a spool line that is not an event). */
    async notRows(source: IngestSource, texts: readonly string[], error: string): Promise<void> {
      if (texts.length === 0) return;
      await setAside.put(
        source,
        texts.map((text) => ({ text })),
        error,
      );
      log.error({ source, records: texts.length, error }, 'reporting: records set aside; the rest go on');
    },
  };
}

export type EventWriter = ReturnType<typeof createEventWriter>;

/** Envelope JSON -> row; the values that are not envelopes (they can never become one) apart. */
export function rowsOf(messages: BusMessage[]): { rows: EventRow[]; notEvents: string[] } {
  const rows: EventRow[] = [];
  const notEvents: string[] = [];
  for (const message of messages) {
    let parsed: ReturnType<typeof Envelope.safeParse>;
    try {
      parsed = Envelope.safeParse(JSON.parse(message.value));
    } catch {
      parsed = Envelope.safeParse(undefined);
    }
    if (parsed.success) rows.push(toEventRow(parsed.data));
    else notEvents.push(message.value);
  }
  return { rows, notEvents };
}

/**
 * One consumer group over every service's topic, in batches (10,000 rows or 1 s, whichever first). The bus
 * commits a batch's offsets only after its insert resolved (the rows that can never go in set aside by the writer);
 * an insert failed by an engine outage gets the same batch again.
 */
export function createIngester(deps: { writer: EventWriter; bus: EventBus }) {
  let subscription: Subscription | undefined;
  return {
    async start() {
      subscription = await deps.bus.subscribeBatch(
        REPORTING_GROUP,
        INGESTED_TOPICS,
        async (messages) =>
          withBatchSpan('reporting ingest flush', messages, { 'nudge.service': 'reporting' }, async () => {
            const { rows, notEvents } = rowsOf(messages);
            await deps.writer.notRows('bus', notEvents, 'not an event envelope');
            await deps.writer.write(rows, 'bus');
          }),
        { maxMessages: BATCH_MAX, maxWaitMs: BATCH_WAIT_MS, minBytes: BATCH_MIN_BYTES },
      );
    },
    async stop() {
      await subscription?.close();
      subscription = undefined;
    },
  };
}
