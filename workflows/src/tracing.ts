import { fileURLToPath } from 'node:url';
import { exportFinishedSpans } from '@nudge/platform';
import type { ClientInterceptors } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';

/**
 * OpenTelemetry across Temporal (docs/ARCHITECTURE.md, "Operations"): the client that starts a workflow writes the
 * caller's span into the workflow's headers; the workflow's span (in the sandbox) and the span of each activity it
 * schedules follow; the worker runs each activity in a span that is the child of that header, so the activity's
 * internal calls (tracedHeaders) carry one trace from the service that started the workflow. The context always
 * propagates; spans are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (platform's startTracing).
 */
export const workflowInterceptorsPath = fileURLToPath(
  new URL('./workflows/interceptors.ts', import.meta.url),
);

/** For every Temporal Client that starts workflows (services, the worker's schedule bootstrap). */
export const tracingClientInterceptors = (): ClientInterceptors => ({
  workflow: [new OpenTelemetryWorkflowClientInterceptor()],
});

/** A span as the workflow sandbox's sink hands it over (OpenTelemetry SDK 1 shape, the interceptors' own SDK). */
type SandboxSpan = {
  spanContext(): { traceId: string; spanId: string; traceFlags: number };
  parentSpanId?: string;
  instrumentationLibrary?: { name: string; version?: string };
};

/**
 * The sandbox's spans in the shape of this process's SDK 2 exporter: the parent as a span context and the
 * instrumentation library as a scope; then exported with the process's resource.
 */
const sandboxSpans = {
  onStart() {},
  onEnd(span: SandboxSpan) {
    const context = span.spanContext();
    exportFinishedSpans([
      {
        ...span,
        instrumentationScope: span.instrumentationLibrary ?? { name: 'temporal' },
        parentSpanContext: span.parentSpanId
          ? { traceId: context.traceId, spanId: span.parentSpanId, traceFlags: context.traceFlags }
          : undefined,
      } as unknown as Parameters<typeof exportFinishedSpans>[0][number],
    ]);
  },
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

/** The worker's part: the workflow interceptor module, activity interceptors and the workflow spans' sink. */
export function workerTracing(): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  return {
    interceptors: {
      workflowModules: [workflowInterceptorsPath],
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: {
      exporter: makeWorkflowExporter(
        sandboxSpans as unknown as Parameters<typeof makeWorkflowExporter>[0],
        // Replaced by the process's own resource on export (exportFinishedSpans).
        {} as Parameters<typeof makeWorkflowExporter>[1],
      ),
    },
  };
}
