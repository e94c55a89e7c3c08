import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTracing } from '@nudge/platform';
import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerTracing } from '../src/tracing';

// The workflow sandbox's spans leave it through the worker's `exporter` sink. They are built by the interceptors'
// own OpenTelemetry SDK (1.x); this process exports with SDK 2. The sink's spans must reach the OTLP endpoint with
// their trace, parent and name intact, under the worker's resource.

type Exported = { traceId: string; spanId: string; parentSpanId?: string; name: string };
const received: { service?: string; spans: Exported[] }[] = [];
let collector: Server;

const hex = (id: string | undefined) =>
  id === undefined || /^[0-9a-f]*$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const payload = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: Exported[] }[];
          }[];
        };
        for (const rs of payload.resourceSpans)
          received.push({
            service: rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
            spans: rs.scopeSpans.flatMap((ss) =>
              ss.spans.map((s) => ({
                name: s.name,
                traceId: hex(s.traceId) as string,
                spanId: hex(s.spanId) as string,
                parentSpanId: hex(s.parentSpanId) || undefined,
              })),
            ),
          });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  collector.listen(0, '127.0.0.1');
  await once(collector, 'listening');
});
afterAll(() => {
  collector?.close();
  trace.disable();
  propagation.disable();
  context.disable();
});

describe("the worker's sink for the workflow sandbox's spans", () => {
  it('exports them over OTLP with their trace and parent, under the worker resource', async () => {
    const stop = startTracing({
      serviceName: 'workflows',
      endpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
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

    expect(received).toEqual([
      {
        service: 'workflows',
        spans: [
          {
            name: 'RunWorkflow:refundReconcileWorkflow',
            traceId,
            spanId: '00f067aa0ba902b7',
            parentSpanId: 'a3ce929d0e0e4736',
          },
        ],
      },
    ]);
  });
});
