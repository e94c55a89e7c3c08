import { startTracing } from '@nudge/platform';
import { startFakeOtlpCollector } from '@nudge/platform/testing';
import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerTracing } from '../src/tracing';

// The workflow sandbox's spans leave it through the worker's `exporter` sink. They are built by the interceptors'
// own OpenTelemetry SDK (1.x); this process exports with SDK 2. The sink's spans must reach the OTLP endpoint with
// their trace, parent and name intact, under the worker's resource.

let collector: Awaited<ReturnType<typeof startFakeOtlpCollector>>;
beforeAll(async () => {
  collector = await startFakeOtlpCollector();
});
afterAll(async () => {
  await collector?.close();
  trace.disable();
  propagation.disable();
  context.disable();
});

describe("the worker's sink for the workflow sandbox's spans", () => {
  it('exports them over OTLP with their trace and parent, under the worker resource', async () => {
    const stop = startTracing({
      serviceName: 'workflows',
      endpoint: collector.url,
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const now = Date.now();
    // A span as the sandbox's SpanExporter serialises it (interceptors-opentelemetry 1.24, lib/workflow).
    const serialised = {
      name: 'RunWorkflow:refundReconcileWorkflow',
      kind: 0,
      spanContext: { traceId, spanId: '00f067aa0ba902b7', traceFlags: 1 },
      parentSpanId: 'a3ce929d0e0e4736',
      startTime: [Math.floor(now / 1000), 0],
      endTime: [Math.floor(now / 1000), 5_000_000],
      status: { code: 0 },
      attributes: {},
      links: [],
      events: [],
      duration: [0, 5_000_000],
      ended: true,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
      instrumentationLibrary: { name: '@temporalio/interceptor-workflow' },
    };
    const sink = workerTracing().sinks?.exporter as unknown as {
      export: { fn(info: unknown, spans: unknown[]): void };
    };
    sink.export.fn({ workflowId: 'refund-reconcile-1', runId: 'run-1' }, [serialised]);
    await stop(); // flushes the batch

    expect(collector.spans).toHaveLength(1);
    expect(collector.spans[0]).toMatchObject({
      name: 'RunWorkflow:refundReconcileWorkflow',
      traceId,
      spanId: '00f067aa0ba902b7',
      parentSpanId: 'a3ce929d0e0e4736',
      // The sink adds the workflow's info to the attributes.
      attributes: { workflowId: 'refund-reconcile-1', runId: 'run-1' },
      service: 'workflows',
    });
  });
});
