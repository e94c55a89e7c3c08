import type { BusMessage, EventBus, Logger, Subscription } from '@nudge/platform';
import { EngineUnavailableError, processMetrics, topicFor, withBatchSpan } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import { Envelope, type EventRow, toEventRow } from '../domain/rows';

export const REPORTING_GROUP = 'reporting';
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

export type IngestSource = 'bus' | 'web' | 'backfill';

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

/** Envelope JSON -> row; a value that is not an envelope is logged and skipped (it can never become one). */
export function rowsOf(messages: BusMessage[], log: Logger): EventRow[] {
  const rows: EventRow[] = [];
  for (const message of messages) {
    let parsed: ReturnType<typeof Envelope.safeParse>;
    try {
      parsed = Envelope.safeParse(JSON.parse(message.value));
    } catch {
      parsed = Envelope.safeParse(undefined);
    }
    if (parsed.success) rows.push(toEventRow(parsed.data));
    else
      log.warn(
        { topic: message.topic, key: message.key },
        'reporting: skipped a message that is not an event',
      );
  }
  return rows;
}

/**
 * One consumer group over every service's topic, in batches (10,000 rows or 1 s, whichever first). The bus
 * commits a batch's offsets only after its insert resolved; a failed insert gets the same batch again.
 */
export function createIngester(deps: { analytics: AnalyticsStore; bus: EventBus; log: Logger }) {
  let subscription: Subscription | undefined;
  return {
    async start() {
      subscription = await deps.bus.subscribeBatch(
        REPORTING_GROUP,
        INGESTED_TOPICS,
        async (messages) =>
          withBatchSpan('reporting ingest flush', messages, { 'nudge.service': 'reporting' }, async () => {
            try {
              await writeEvents(deps.analytics, rowsOf(messages, deps.log));
            } catch (err) {
              // ClickHouse down: the bus waits with the batch (no split, no dead letter) until it answers again.
              if (
                !(await deps.analytics.ping().then(
                  () => true,
                  () => false,
                ))
              )
                throw new EngineUnavailableError('ClickHouse does not answer', { cause: err });
              throw err;
            }
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
