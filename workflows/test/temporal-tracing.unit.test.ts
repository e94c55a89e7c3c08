import { createLogger, currentTraceparent } from '@nudge/platform';
import { startInMemoryTracing } from '@nudge/platform/testing';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Headers } from '@temporalio/common';
import {
  extractContextFromHeaders,
  headersWithContext,
} from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityInboundCallsInterceptor } from '@temporalio/worker';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createActivities } from '../src/activities';
import { tracingClientInterceptors, workerTracing } from '../src/tracing';

// Trace propagation across Temporal, on what runs without a Temporal server: the client's start (service ->
// workflow start, into the workflow's headers) and the activity side (the workflow's headers -> the activity's span
// -> the activity's internal call). The workflow leg (the sandbox's interceptors turning the start header into the
// activity header) needs a Temporal server or the time-skipping test server: see the skipped leg below.

const { exporter, stop } = startInMemoryTracing();
beforeEach(() => exporter.reset());
afterAll(stop);

/** The activities, with an internal call that records the trace context it is made in and answers `answer`. */
const STEP = {
  subscriptionId: 'sub_1',
  kind: 'notice' as const,
  endAt: '2026-12-01T00:00:00.000Z',
  at: '2026-11-24T00:00:00.000Z',
};

function recordingActivities(answer: unknown) {
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
const RECONCILED = { status: true, refunded: [], failed: [], pending: [], retried: [] };

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const byName = (name: string) => {
  const span = exporter.getFinishedSpans().find((s) => s.name === name);
  if (!span) throw new Error(`no span ${name} in ${exporter.getFinishedSpans().map((s) => s.name)}`);
  return span;
};

/** Runs `work` inside a SERVER span, as a service's request handler runs (traceRequests). */
const inRequestSpan = <T>(work: () => Promise<T>) => {
  const span = trace.getTracer('test').startSpan('POST /api/payment/cancel', { kind: SpanKind.SERVER });
  return context
    .with(trace.setSpan(context.active(), span), work)
    .finally(() => span.end())
    .then((result) => ({ result, span: span.spanContext() }));
};

describe('Temporal tracing: the client starting a workflow', () => {
  it("writes the service request's trace into the workflow's headers, under a StartWorkflow span", async () => {
    const [interceptor] = tracingClientInterceptors().workflow as {
      start(input: unknown, next: (input: { headers: Headers }) => Promise<string>): Promise<string>;
    }[];
    let sent: Headers = {};
    const { result, span: request } = await inRequestSpan(() =>
      interceptor!.start(
        {
          workflowType: 'refundReconcileWorkflow',
          headers: {},
          options: { workflowId: 'refund-reconcile-1', taskQueue: 'nudge', args: [] },
        },
        async (input) => {
          sent = input.headers;
          return 'run-1';
        },
      ),
    );
    expect(result).toBe('run-1');

    const start = byName('StartWorkflow:refundReconcileWorkflow');
    expect(start.spanContext().traceId).toBe(request.traceId);
    expect(parentOf(start)).toBe(request.spanId);
    const carried = trace.getSpanContext(extractContextFromHeaders(sent) ?? context.active());
    expect(carried).toMatchObject({ traceId: request.traceId, spanId: start.spanContext().spanId });
  });
});

describe('Temporal tracing: the activity side', () => {
  it("runs the activity in a span under the workflow's header context; its internal call carries that trace", async () => {
    const { activities, sent } = recordingActivities(RECONCILED);
    // The headers a scheduled activity arrives with: the trace context of the workflow span that scheduled it
    // (written by the same headersWithContext the workflow's outbound interceptor uses in the sandbox).
    const scheduling = trace.getTracer('test').startSpan('StartActivity:reconcileRefunds');
    const headers = context.with(trace.setSpan(context.active(), scheduling), () => headersWithContext({}));
    scheduling.end();

    const env = new MockActivityEnvironment({ activityType: 'reconcileRefunds' });
    const factory = workerTracing().interceptors?.activity?.[0];
    if (!factory) throw new Error('no activity interceptor configured');
    const inbound = factory(env.context).inbound as Required<ActivityInboundCallsInterceptor>;
    await env.run(() =>
      inbound.execute({ args: [{}], headers }, async (input) =>
        activities.reconcileRefunds(input.args[0] as Record<string, never>),
      ),
    );

    const run = byName('RunActivity:reconcileRefunds');
    const ours = byName('activity reconcileRefunds');
    expect(run.spanContext().traceId).toBe(scheduling.spanContext().traceId);
    expect(parentOf(run)).toBe(scheduling.spanContext().spanId);
    expect(parentOf(ours)).toBe(run.spanContext().spanId);
    expect(sent).toEqual([`00-${ours.spanContext().traceId}-${ours.spanContext().spanId}-01`]);
  });

  it('without a trace header the activity starts a trace of its own (still one trace for its calls)', async () => {
    const { activities, sent } = recordingActivities({ plan: null });
    const env = new MockActivityEnvironment({ activityType: 'renewalStep' });
    const inbound = workerTracing().interceptors?.activity?.[0]?.(env.context)
      .inbound as Required<ActivityInboundCallsInterceptor>;
    await env.run(() =>
      inbound.execute({ args: [STEP], headers: {} }, async (input) =>
        activities.renewalStep(input.args[0] as typeof STEP),
      ),
    );
    const run = byName('RunActivity:renewalStep');
    expect(parentOf(run)).toBeUndefined();
    expect(sent[0]?.split('-')[1]).toBe(run.spanContext().traceId);
  });
});

const temporalAddress = process.env.TEMPORAL_ADDRESS;
if (!temporalAddress)
  console.log(
    '[unit] workflows / Temporal tracing, workflow leg (start header -> workflow span -> activity header): skipped: ' +
      'TEMPORAL_ADDRESS is not set, and the time-skipping test server cannot be downloaded here',
  );

describe.runIf(Boolean(temporalAddress))('Temporal tracing: a real worker', () => {
  it('one trace from the service span through the workflow to the activity and its internal call', async () => {
    const { randomBytes } = await import('node:crypto');
    const { Client, Connection } = await import('@temporalio/client');
    const { NativeConnection, Worker } = await import('@temporalio/worker');
    const { workflowsPath } = await import('../src/worker');
    const { activities, sent } = recordingActivities(RECONCILED);
    const taskQueue = `trace-${randomBytes(4).toString('hex')}`;
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporalAddress as string }),
      taskQueue,
      workflowsPath,
      activities,
      ...workerTracing(),
    });
    const client = new Client({
      connection: await Connection.connect({ address: temporalAddress as string }),
      interceptors: tracingClientInterceptors(),
    });
    const { span: request } = await inRequestSpan(() =>
      worker.runUntil(
        client.workflow.execute('refundReconcileWorkflow', { taskQueue, workflowId: `trace-${taskQueue}` }),
      ),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.split('-')[1]).toBe(request.traceId);
    expect(byName('RunActivity:reconcileRefunds').spanContext().traceId).toBe(request.traceId);
  }, 60_000);
});
