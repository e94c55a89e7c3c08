import { createRequire } from 'node:module';
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { RequestHandler } from 'express';
import { SharedContextManager } from './context';
import { expressRoute } from './metrics';

/**
 * The SDK that records and exports spans, loaded only when an endpoint is configured (a process that exports nothing,
 * as the standalone process by default, never loads it). Synchronously, so spans are exported from startTracing on.
 */
const requireSdk = () => {
  const require = createRequire(import.meta.url);
  return {
    ...(require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')),
    ...(require('@opentelemetry/resources') as typeof import('@opentelemetry/resources')),
    ...(require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base')),
  };
};

/**
 * OpenTelemetry trace context (docs/ARCHITECTURE.md, "Operations"): W3C `traceparent` flows from the gateway to the
 * services, into the events they append (meta.traceparent), onto the bus (header `traceparent`) and into the
 * consumers. Spans are recorded and exported (OTLP over HTTP) only when OTEL_EXPORTER_OTLP_ENDPOINT is set; without
 * it the context is still propagated, so a caller's trace id reaches every hop.
 */
let tracing: { shutdown(): Promise<void> } | undefined;
/** The exporting processor when an endpoint is configured (spans recorded elsewhere, e.g. Temporal's workflow sandbox). */
let exporting: { processor: SpanProcessor; resource: ReadableSpan['resource'] } | undefined;

export function startTracing(opts: {
  serviceName: string;
  endpoint?: string | undefined;
}): () => Promise<void> {
  if (!tracing) {
    // The request context's storage (context.ts): one AsyncLocalStorage for both.
    context.setGlobalContextManager(new SharedContextManager());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    if (opts.endpoint) {
      const { BasicTracerProvider, BatchSpanProcessor, OTLPTraceExporter, resourceFromAttributes } =
        requireSdk();
      const processor = new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/$/, '')}/v1/traces` }),
        { scheduledDelayMillis: 1_000 },
      );
      const resource = resourceFromAttributes({ 'service.name': opts.serviceName });
      const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
      trace.setGlobalTracerProvider(provider);
      exporting = { processor, resource };
      tracing = {
        shutdown: async () => {
          exporting = undefined;
          await provider.shutdown();
        },
      };
    } else tracing = { shutdown: async () => undefined };
  }
  return () => tracing?.shutdown() ?? Promise.resolve();
}

const tracer = () => trace.getTracer('nudge');

/**
 * Exports spans finished outside this process's tracer (Temporal's workflow sandbox hands its spans to a sink):
 * to the OTLP exporter when an endpoint is configured (with this process's resource), otherwise nowhere.
 */
export function exportFinishedSpans(spans: ReadableSpan[]): void {
  if (!exporting) return;
  for (const span of spans) exporting.processor.onEnd({ ...span, resource: exporting.resource });
}

/** A SERVER span per request, child of the caller's `traceparent`, active while the request is handled. */
export function traceRequests(
  service: string,
  routeOf: (req: Parameters<RequestHandler>[0]) => string = expressRoute,
): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'nudge.service': service, 'http.request.method': req.method } },
      parent,
    );
    // Nothing recorded (no tracer provider) and no trace to pass on (the caller sent none): a span would change nothing.
    if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return next();
    endWithResponse(span, req, res, routeOf);
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * The SERVER span of a service for a request the gateway handed to it in this process: a child of the gateway's
 * span, which is the active context already (no `traceparent` to parse). When the gateway's span is not recording (no
 * tracer provider: nothing is exported), a child would carry the very same trace context, so none is made.
 */
export function traceHandedIn(
  service: string,
  routeOf: (req: Parameters<RequestHandler>[0]) => string = expressRoute,
): RequestHandler {
  return (req, res, next) => {
    if (!trace.getActiveSpan()?.isRecording()) return next();
    const parent = context.active();
    const span = tracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'nudge.service': service, 'http.request.method': req.method } },
      parent,
    );
    endWithResponse(span, req, res, routeOf);
    context.with(trace.setSpan(parent, span), next);
  };
}

/** Names the span after the route and ends it when the response is done (or the client went away). */
function endWithResponse(
  span: Span,
  req: Parameters<RequestHandler>[0],
  res: Parameters<RequestHandler>[1],
  routeOf: (req: Parameters<RequestHandler>[0]) => string,
) {
  res.once('close', () => {
    const route = routeOf(req);
    span.updateName(`${req.method} ${route}`);
    span.setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** The active trace context as a `traceparent` value (for event meta), if there is one. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Writes the active trace context into outgoing headers (the gateway's proxied requests, internal calls). */
export function injectTraceContext(headers: Record<string, unknown>): void {
  propagation.inject(context.active(), headers);
}

/** `headers` plus the active trace context: for calls to another service's /internal routes. */
export function tracedHeaders(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  propagation.inject(context.active(), out);
  return out;
}

/** Runs `work` in a CONSUMER span whose parent is the message's `traceparent` header. */
export function withConsumerSpan<T>(
  name: string,
  headers: Record<string, string>,
  attributes: Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  return inSpan(name, SpanKind.CONSUMER, attributes, propagation.extract(ROOT_CONTEXT, headers), work);
}

/**
 * Runs a batch's flush (reporting's analytics ingest) in a CONSUMER span of its own: the batch size as
 * `messaging.batch.message_count`, the flush time as `nudge.flush.duration_ms`, and a link to each message's trace
 * (its `traceparent` header; at most 128), since one batch carries many traces.
 */
export async function withBatchSpan<T>(
  name: string,
  messages: { headers: Record<string, string> }[],
  attributes: Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  const links: Link[] = [];
  for (const message of messages) {
    if (links.length >= 128) break;
    const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, message.headers));
    if (linked) links.push({ context: linked });
  }
  const started = performance.now();
  return inSpan(
    name,
    SpanKind.CONSUMER,
    { ...attributes, 'messaging.batch.message_count': messages.length },
    ROOT_CONTEXT,
    work,
    {
      links,
      beforeEnd: (span) =>
        span.setAttribute('nudge.flush.duration_ms', Math.round((performance.now() - started) * 1000) / 1000),
    },
  );
}

/**
 * Runs `work` in an INTERNAL span, child of the active context (a new trace when there is none): a unit of background
 * work such as a reminder activity, so the internal calls it makes carry its trace.
 */
export function withSpan<T>(
  name: string,
  attributes: Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  return inSpan(name, SpanKind.INTERNAL, attributes, context.active(), work);
}

async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  parent: Context,
  work: () => Promise<T>,
  options: { links?: Link[]; beforeEnd?: (span: Span) => void } = {},
): Promise<T> {
  const span: Span = tracer().startSpan(name, { kind, attributes, links: options.links ?? [] }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    options.beforeEnd?.(span);
    span.end();
  }
}
