import { startInMemoryTracing } from '@nudge/platform/testing';
import { context, trace } from '@opentelemetry/api';
import type { Headers } from '@temporalio/common';
import {
  extractContextFromHeaders,
  headersWithContext,
} from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityInboundCallsInterceptor } from '@temporalio/worker';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { tracingClientInterceptors, workerTracing } from '../src/tracing';
import { inRequestSpan, parentOf, RECONCILED, recordingActivities, STEP, spanLookup } from './fixtures';

// Trace propagation across Temporal, on what runs without a Temporal server: the client's start (service ->
// workflow start, into the workflow's headers) and the activity side (the workflow's headers -> the activity's span
// -> the activity's internal call). The workflow leg (the sandbox's interceptors turning the start header into the
// activity header) runs on a real worker: temporal-tracing.int.test.ts.

const { exporter, stop } = startInMemoryTracing();
beforeEach(() => exporter.reset());
afterAll(stop);

const { byName } = spanLookup(exporter);

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
