// /metrics of the standalone topology: one Prometheus registry for the process, every service's series
// told apart by a `service` label, served on the scrape port only (never through the gateway's public port).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

let dataDir: string;
let app: Standalone;
const { call, ok, eventually, signIn } = gatewayClient(() => app);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (what a scraper reads). */
function parse(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1] as string, type[2] as string);
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = l[2] as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return { types, samples };
}

async function scrape() {
  const res = await fetch(app.metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, ...parse(text) };
}

const find = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

let admin: { token: string; id: string };
let topicId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-metrics-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    ADMIN_EMAILS: 'admin@example.com',
    REMINDER_SCHEDULER: 'off',
    WEB_DIST: join(dataDir, 'none'),
  });
  admin = await signIn('admin@example.com');
  const reader = await signIn('reader@example.com');
  topicId = (await ok('POST', '/api/topic/add', { topic: 'Metrics' }, admin.token)).topic._id;
  // One route of each service, through the gateway.
  await ok('GET', `/api/comment/comments/${topicId}`);
  await ok('POST', '/api/payment/history', {}, reader.token);
  await ok('GET', '/api/report', undefined, admin.token);
  expect((await call('GET', `/api/template/details/${topicId}`, undefined, admin.token)).status).toBe(404);
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('/metrics of the standalone process', () => {
  it('counts requests by service, method, route pattern and status, with durations', async () => {
    const { samples, types, text } = await scrape();
    expect(types.get('nudge_http_requests_total')).toBe('counter');
    expect(types.get('nudge_http_request_errors_total')).toBe('counter');
    expect(types.get('nudge_http_request_duration_seconds')).toBe('histogram');
    const routes: [string, string, string][] = [
      ['auth', 'POST', '/api/user/verify'],
      ['content', 'POST', '/api/topic/add'],
      ['engagement', 'GET', '/api/comment/comments/:templateId'],
      ['billing', 'POST', '/api/payment/history'],
      ['reporting', 'GET', '/api/report'],
    ];
    for (const [service, method, route] of routes) {
      for (const who of [service, 'gateway']) {
        const labels = { service: who, method, route, status: '200' };
        expect(
          find(samples, 'nudge_http_requests_total', labels)[0]?.value,
          `${who} ${route}`,
        ).toBeGreaterThanOrEqual(1);
        expect(
          find(samples, 'nudge_http_request_duration_seconds_count', labels)[0]?.value,
        ).toBeGreaterThanOrEqual(1);
      }
    }
    // Route patterns, never raw URLs: the ids in the paths above are nowhere in the exposition.
    expect(
      find(samples, 'nudge_http_requests_total', {
        service: 'content',
        route: '/api/template/details/:id',
        status: '404',
      }),
    ).toHaveLength(1);
    expect(text).not.toContain(topicId);
  });

  it('reports pending commits per service, consumer lag and dead letters per group, and analytics batches', async () => {
    await eventually(async () => {
      const { samples } = await scrape();
      return (
        (find(samples, 'nudge_analytics_batch_rows_count', { service: 'reporting', source: 'bus' })[0]
          ?.value ?? 0) > 0
      );
    }, 'reporting to insert a batch of events into ClickHouse');
    const { samples, types } = await scrape();
    for (const service of ['auth', 'content', 'engagement', 'billing', 'reporting'])
      expect(find(samples, 'nudge_relay_pending_commits', { service }), service).toHaveLength(1);
    for (const group of ['content', 'reporting', 'reporting-directory'])
      expect(find(samples, 'nudge_consumer_lag_messages', { group }).length, group).toBeGreaterThan(0);
    expect(types.get('nudge_consumer_dead_letters')).toBe('gauge');
    // what reporting's pipelines set aside, by source (none here)
    expect(types.get('nudge_set_aside_records')).toBe('gauge');
    for (const source of ['bus', 'web', 'backfill'])
      expect(find(samples, 'nudge_set_aside_records', { service: 'reporting', source }), source).toEqual([
        { name: 'nudge_set_aside_records', labels: { service: 'reporting', source }, value: 0 },
      ]);
    expect(
      find(samples, 'nudge_analytics_flush_seconds_count', { service: 'reporting' }).length,
    ).toBeGreaterThan(0);
    expect(types.get('nudge_reminders_sent_total')).toBe('counter');
    // Node's own process metrics.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(types.has(name), name).toBe(true);
  });

  it('lags while a group is behind and drains to 0 once the group has caught up', async () => {
    await eventually(async () => {
      const { samples } = await scrape();
      const lags = samples.filter((s) => s.name === 'nudge_consumer_lag_messages');
      return lags.length > 0 && lags.every((s) => s.value === 0);
    }, 'every consumer group to catch up');
  });

  it('is not served on the public port, nor through the gateway to a service', async () => {
    for (const path of ['/metrics', '/api/metrics', '/auth/metrics']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('nudge_http_requests_total');
    }
    for (const [service, url] of Object.entries(app.serviceUrls)) {
      const res = await fetch(`${url}/metrics`);
      expect(res.status, service).toBe(404);
    }
    expect(new URL(app.metricsUrl).hostname).toBe('127.0.0.1');
  });
});
