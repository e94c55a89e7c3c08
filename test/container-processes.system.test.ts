// The container entry files (docker-compose, Kubernetes) of the gateway and a service: /metrics answers on
// METRICS_PORT and nowhere else, and SIGTERM lets a request in flight finish before the process exits 0.
// The service runs on its embedded adapters here (no MongoDB or Kafka on this machine): the code paths of the
// metrics server and the shutdown are the same as on the production adapters.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'nudge-containers-'));
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  return typeof address === 'object' && address ? address.port : 0;
}

function start(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn('node', ['--import', 'tsx', entry], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

/** Waits until `url` answers 2xx. */
const answers = (url: string, ms = 120_000) =>
  until(
    () =>
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
    `${url} to answer`,
    ms,
    200,
  );

/** A POST whose body is sent in two halves, `between` running in the middle; resolves with the status or error. */
function slowPost(port: number, path: string, between: () => Promise<void>) {
  const payload = JSON.stringify({ topic: 'slow', padding: 'x'.repeat(2000) });
  return new Promise<{ status?: number; error?: string }>((done) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message }));
    req.write(payload.slice(0, 1000));
    between().then(() => req.end(payload.slice(1000)));
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : (once(child, 'exit') as Promise<[number | null]>).then(([code]) => code);

const ports = { service: 0, serviceMetrics: 0, gateway: 0, gatewayMetrics: 0 };
let content: ChildProcess;
let gateway: ChildProcess;

beforeAll(async () => {
  for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
  content = start('services/content/src/main.ts', {
    DATA_DIR: join(scratch, 'content'),
    SERVICE_PORT: String(ports.service),
    METRICS_PORT: String(ports.serviceMetrics),
    SHUTDOWN_TIMEOUT_MS: '15000',
  });
  gateway = start('gateway/src/main.ts', {
    PORT: String(ports.gateway),
    METRICS_PORT: String(ports.gatewayMetrics),
    CONTENT_URL: `http://127.0.0.1:${ports.service}`,
    SHUTDOWN_TIMEOUT_MS: '15000',
  });
  await Promise.all([
    answers(`http://127.0.0.1:${ports.service}/readyz`),
    answers(`http://127.0.0.1:${ports.gateway}/healthz`),
  ]);
}, 180_000);
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe('container processes', () => {
  it('serve /metrics on METRICS_PORT only, each with its own service label', async () => {
    const topics = await fetch(`http://127.0.0.1:${ports.gateway}/api/topic/getalltopics`);
    expect(topics.status).toBe(200);
    const scrape = async (port: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const gatewayText = await scrape(ports.gatewayMetrics);
    expect(gatewayText).toMatch(
      /^nudge_http_requests_total\{service="gateway",method="GET",route="\/api\/topic\/getalltopics",status="200"\} 1$/m,
    );
    expect(gatewayText).toContain('process_resident_memory_bytes');
    const serviceText = await scrape(ports.serviceMetrics);
    expect(serviceText).toMatch(
      /^nudge_http_requests_total\{service="content",method="GET",route="\/api\/topic\/getalltopics",status="200"\} 1$/m,
    );
    expect(serviceText).toMatch(/^nudge_relay_pending_commits\{service="content"\} \d+$/m);
    expect(serviceText).toContain('# TYPE nudge_consumer_lag_messages gauge');
    // The public and service ports never serve it.
    for (const port of [ports.gateway, ports.service]) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(404);
    }
  });

  it('finish a request in flight on SIGTERM, then exit 0', { timeout: 120_000 }, async () => {
    // Through the gateway: SIGTERM to the gateway while the body is half sent. The service answers 401 (no token):
    // the point is that an answer comes back at all, after the signal, instead of a dropped connection.
    const viaGateway = await slowPost(ports.gateway, '/api/topic/add', async () => {
      await new Promise((r) => setTimeout(r, 200));
      gateway.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
    });
    expect(viaGateway).toEqual({ status: 401 });
    expect(await exited(gateway)).toBe(0);
    // The gateway's port is closed now: a new connection is refused.
    await expect(fetch(`http://127.0.0.1:${ports.gateway}/healthz`)).rejects.toThrow();

    const direct = await slowPost(ports.service, '/api/topic/add', async () => {
      await new Promise((r) => setTimeout(r, 200));
      content.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
    });
    expect(direct).toEqual({ status: 401 });
    expect(await exited(content)).toBe(0);
  });
});
