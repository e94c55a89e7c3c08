// Temporal workflow interceptors (bundled into the workflow sandbox through the worker's
// interceptors.workflowModules): each workflow run and each activity it schedules gets a span, and the span context
// travels to the activity in Temporal's headers. Deterministic: spans use the workflow's clock and ids, and leave
// the sandbox only through the `exporter` sink (workflows/src/tracing.ts).
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [new OpenTelemetryInboundInterceptor()],
  outbound: [new OpenTelemetryOutboundInterceptor()],
  internals: [new OpenTelemetryInternalsInterceptor()],
});
