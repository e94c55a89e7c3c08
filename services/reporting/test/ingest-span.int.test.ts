import { createEmbeddedStore, createInProcessBus, createLogger, topicFor } from '@nudge/platform';
import { startInMemoryTracing } from '@nudge/platform/testing';
import { trace } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore } from '../src/analytics';
import { createSetAside } from '../src/app/set-aside';
import { createEventWriter, createIngester } from '../src/events/ingest';

// Reporting's batch ingest flush runs in a span of its own, with the batch size and the flush time, linked
// to the traces of the events it carries.

const { exporter, stop } = startInMemoryTracing();
afterAll(stop);

const envelope = (n: number) =>
  JSON.stringify({
    id: `0000000000000000000000${String(n).padStart(2, '0')}`,
    type: 'auth.UserRegistered.v1',
    stream: `user-u${n}`,
    version: 1,
    occurredAt: '2026-11-20T10:00:00.000Z',
    actor: null,
    data: { userId: `u${n}` },
    meta: {},
  });

describe('reporting ingest flush span', () => {
  it('one span per flushed batch: message count, flush time, links to the events’ traces; the insert runs inside it', async () => {
    const store = createEmbeddedStore({});
    const log = createLogger('ingest-span-test', 'silent');
    const bus = createInProcessBus({ store, pollMs: 10, log });
    const inserted: { rows: number; traceId: string | undefined }[] = [];
    const analytics = {
      async insert(_table: string, rows: unknown[]) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        inserted.push({ rows: rows.length, traceId: trace.getActiveSpan()?.spanContext().traceId });
      },
    } as unknown as AnalyticsStore;
    const traceparent = (n: number) => `00-${String(n).repeat(32).slice(0, 32)}-${'b'.repeat(16)}-01`;
    await bus.publish(
      [1, 2, 3].map((n) => ({
        topic: topicFor('auth'),
        key: `user-u${n}`,
        value: envelope(n),
        headers: { traceparent: traceparent(n) },
      })),
    );
    const writer = createEventWriter({ analytics, setAside: createSetAside(store), log });
    const ingester = createIngester({ writer, bus });
    await ingester.start();
    const deadline = Date.now() + 10_000;
    while (inserted.reduce((n, i) => n + i.rows, 0) < 3 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await ingester.stop();
    await bus.close();
    await store.close();

    const flushes = exporter.getFinishedSpans().filter((s) => s.name === 'reporting ingest flush');
    expect(flushes.length).toBeGreaterThan(0);
    const counted = flushes.reduce((n, s) => n + Number(s.attributes['messaging.batch.message_count']), 0);
    expect(counted).toBe(3);
    for (const span of flushes) {
      expect(span.attributes['nudge.flush.duration_ms']).toBeGreaterThanOrEqual(15);
    }
    expect(flushes.flatMap((s) => s.links.map((l) => l.context.traceId)).sort()).toEqual(
      [1, 2, 3].map((n) => traceparent(n).split('-')[1]),
    );
    // The insert ran inside the flush span (its trace), so ClickHouse client spans would nest under it.
    expect(new Set(inserted.map((i) => i.traceId))).toEqual(
      new Set(flushes.map((s) => s.spanContext().traceId)),
    );
  });
});
