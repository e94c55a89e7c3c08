import { createLogger, currentTraceparent } from '@nudge/platform';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../src/activities';

const exporter = new InMemorySpanExporter();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});

afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

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
