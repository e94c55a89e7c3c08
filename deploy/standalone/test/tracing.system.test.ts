// Trace context: a caller's W3C traceparent reaches the gateway, the service it routes to, the events that
// service appends (bus header `traceparent`) and the consumers of those events in other services; the spans are
// exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (a fake collector here).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOtlpCollector } from '@nudge/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

let dataDir: string;
let app: Standalone;
let collector: Awaited<ReturnType<typeof startFakeOtlpCollector>>;
let spans: typeof collector.spans = [];
const { eventually, signIn } = gatewayClient(() => app);

beforeAll(async () => {
  collector = await startFakeOtlpCollector();
  spans = collector.spans;
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-tracing-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    REMINDER_SCHEDULER: 'off',
    ADMIN_EMAILS: 'admin@example.com',
    WEB_DIST: join(dataDir, 'none'),
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  });
});
afterAll(async () => {
  await app?.close();
  await collector?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('carries the caller’s trace from the gateway to the service, onto the bus and into the consumers', async () => {
  const reader = await signIn('trace@example.com', false);
  const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const callerSpan = '1234567890abcdef';
  const res = await fetch(`${app.url}/api/user/updatename`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${reader.token}`,
      traceparent: `00-${traceId}-${callerSpan}-01`,
    },
    body: JSON.stringify({ firstname: 'Tracy', lastname: 'Reader' }),
  });
  expect(res.status).toBe(200);

  const ours = () => spans.filter((s) => s.traceId === traceId);
  await eventually(
    async () => ours().filter((s) => s.kind === 5).length >= 4,
    'consumer spans of the profile update in content, engagement, billing and reporting',
    20_000,
  );
  const gateway = ours().find((s) => s.attributes['nudge.service'] === 'gateway');
  expect(gateway).toMatchObject({ name: 'POST /api/user/updatename', parentSpanId: callerSpan, kind: 2 });
  const auth = ours().find((s) => s.attributes['nudge.service'] === 'auth');
  expect(auth).toMatchObject({ name: 'POST /api/user/updatename', parentSpanId: gateway?.spanId, kind: 2 });
  // The consumers' spans belong to the same trace; their parent is the request that appended the event.
  const consumers = ours().filter((s) => s.kind === 5);
  for (const c of consumers) {
    expect(c.name).toMatch(/ auth\.ProfileUpdated\.v1$/);
    expect(c.parentSpanId).toBe(auth?.spanId);
  }
  expect(new Set(consumers.map((c) => c.attributes['messaging.consumer.group.name']))).toEqual(
    new Set(['content', 'engagement', 'billing', 'reporting-directory']),
  );
  // Requests without a traceparent start traces of their own.
  expect(spans.some((s) => s.traceId !== traceId && s.attributes['nudge.service'] === 'gateway')).toBe(true);
});

it('carries it on calls to another service’s /internal routes', async () => {
  const admin = await signIn('admin@example.com', false);
  const traceId = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
  const res = await fetch(`${app.url}/api/user/getalluserdata`, {
    headers: { authorization: `Bearer ${admin.token}`, traceparent: `00-${traceId}-0123456789abcdef-01` },
  });
  expect(res.status).toBe(200);
  const ours = () => spans.filter((s) => s.traceId === traceId);
  await eventually(
    async () => ours().some((s) => s.attributes['nudge.service'] === 'reporting'),
    "the span of auth's call to reporting",
    20_000,
  );
  const auth = ours().find((s) => s.attributes['nudge.service'] === 'auth');
  const reporting = ours().find((s) => s.attributes['nudge.service'] === 'reporting');
  expect(auth?.name).toBe('GET /api/user/getalluserdata');
  expect(reporting).toMatchObject({ name: 'POST /internal/email-stats', parentSpanId: auth?.spanId });
});
