import { createLogger, currentTraceparent } from '@nudge/platform';
import { startInMemoryTracing } from '@nudge/platform/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createActivities } from '../src/activities';

const { exporter, stop } = startInMemoryTracing();
afterAll(stop);

describe('activity tracing', () => {
  it('runs each activity in a span of its own, and its internal calls carry that span as their parent', async () => {
    const sent: (string | undefined)[] = [];
    const activities = createActivities({
      call: async <T>() => {
        sent.push(currentTraceparent());
        return {
          status: true,
          outcome: 'nothing',
          plan: { subscriptionId: 'sub_1', endAt: null, next: null },
        } as T;
      },
      mail: { send: async () => undefined } as never,
      whatsapp: { send: async () => undefined } as never,
      trackingSecret: Buffer.alloc(32),
      publicUrl: 'http://nudge.test',
      log: createLogger('test', 'silent'),
      clock: () => new Date('2026-11-23T00:00:00Z'),
    });

    await activities.renewalStep({
      subscriptionId: 'sub_1',
      kind: 'notice',
      endAt: '2026-11-30T00:00:00.000Z',
      at: '2026-11-23T00:00:00.000Z',
    });

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['activity renewalStep']);
    const { traceId, spanId } = spans[0]?.spanContext() ?? { traceId: '', spanId: '' };
    expect(sent).toEqual([`00-${traceId}-${spanId}-01`]);
  });
});
