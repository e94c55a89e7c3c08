// What the Temporal tests share: a quiet worker runtime, activities whose internal call records its trace context, and
// span lookups.
import { createLogger, currentTraceparent } from '@nudge/platform';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createActivities } from '../src/activities';

/** Workers and the bundler log warnings only (their INFO lines would bury the test output). Once per test file. */
export function quietTemporalRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // installed already in this file's process
  }
}

export const STEP = {
  subscriptionId: 'sub_1',
  kind: 'notice' as const,
  endAt: '2026-12-01T00:00:00.000Z',
  at: '2026-11-24T00:00:00.000Z',
};

/** The activities, with an internal call that records the trace context it is made in and answers `answer`. */
export function recordingActivities(answer: unknown) {
  const sent: (string | undefined)[] = [];
  const activities = createActivities({
    call: async <T>() => {
      sent.push(currentTraceparent());
      return answer as T;
    },
    mail: { send: async () => undefined } as never,
    whatsapp: { send: async () => undefined } as never,
    trackingSecret: Buffer.alloc(32),
    publicUrl: 'http://nudge.test',
    log: createLogger('test', 'silent'),
    clock: () => new Date(),
  });
  return { activities, sent };
}
export const RECONCILED = { status: true, refunded: [], failed: [], pending: [], retried: [] };

export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

export const spanLookup = (exporter: InMemorySpanExporter) => ({
  byName(name: string) {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span) throw new Error(`no span ${name} in ${exporter.getFinishedSpans().map((s) => s.name)}`);
    return span;
  },
});

/** Runs `work` inside a SERVER span, as a service's request handler runs (traceRequests). */
export const inRequestSpan = <T>(work: () => Promise<T>) => {
  const span = trace.getTracer('test').startSpan('POST /api/payment/cancel', { kind: SpanKind.SERVER });
  return context
    .with(trace.setSpan(context.active(), span), work)
    .finally(() => span.end())
    .then((result) => ({ result, span: span.spanContext() }));
};
