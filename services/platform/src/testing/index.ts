/** Helpers for tests that talk to a service or the gateway over real HTTP. */
/* biome-ignore-all lint/suspicious/noExplicitAny: replies are walked freely in test assertions */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { SharedContextManager } from '../context';

export interface JsonReply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON (CSV, HTML). */
  body: any;
}

/** One HTTP call with an optional JSON body and bearer token; never throws on a 4xx/5xx. */
export async function jsonCall(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<JsonReply> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: parseJson(text) };
}

export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A POST to a service's /internal route with the internal credential (null: without one); never throws on 4xx/5xx. */
export async function internalPost(
  base: string,
  path: string,
  body: unknown,
  credential: string | null,
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { 'x-internal-token': credential } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: parseJson(await res.text()) };
}

/** The data of an auth.UserRegistered.v1 event with the defaults a self sign-up gets, for tests that feed copies. */
export const userRegisteredData = (
  userId: string,
  email: string,
  role: 'user' | 'premium' | 'admin' = 'user',
  timeZone = 'UTC',
) => ({
  userId,
  email,
  source: 'self' as const,
  role,
  type: 0 as const,
  notiinfo: { time: '08:00', active: true },
  topics: [] as string[],
  timeZone,
});

/**
 * Records every span of this process in memory (tests of trace propagation): the W3C propagator, an
 * AsyncLocalStorage context manager and a tracer provider whose finished spans `exporter` holds. `stop()` undoes it.
 */
export function startInMemoryTracing() {
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new SharedContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  return {
    exporter,
    stop() {
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** A span as a fake OTLP collector received it: hex ids, attributes as plain values, the resource's service name. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  service?: string;
}

type OtlpAttribute = { key: string; value: Record<string, unknown> };

/** OTLP/JSON ids are hex; accept base64 too. */
const hexId = (id: string | undefined) =>
  id === undefined || /^[0-9a-f]*$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
const plain = (attributes: OtlpAttribute[] = []) =>
  Object.fromEntries(attributes.map((a) => [a.key, Object.values(a.value)[0]]));

/**
 * A local HTTP server that takes OTLP/HTTP JSON trace exports (POST /v1/traces) and keeps every span in `spans`;
 * `url` is what OTEL_EXPORTER_OTLP_ENDPOINT takes.
 */
export async function startFakeOtlpCollector() {
  const spans: CollectedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body) as {
          resourceSpans: {
            resource?: { attributes?: OtlpAttribute[] };
            scopeSpans: {
              spans: (Omit<CollectedSpan, 'attributes' | 'service'> & { attributes?: OtlpAttribute[] })[];
            }[];
          }[];
        };
        for (const rs of payload.resourceSpans) {
          const service = plain(rs.resource?.attributes)['service.name'] as string | undefined;
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              spans.push({
                ...s,
                traceId: hexId(s.traceId) as string,
                spanId: hexId(s.spanId) as string,
                parentSpanId: hexId(s.parentSpanId) || undefined,
                attributes: plain(s.attributes),
                ...(service ? { service } : {}),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Submits billing's simulated checkout form (embedded topology) as a browser would, without following the redirect. */
export const submitSimulatedCheckout = (base: string, checkoutUrl: string, outcome: 'pay' | 'fail' = 'pay') =>
  fetch(base + checkoutUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
export { given, history } from './decider';
export { until } from './until';
