import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { apiRoutes } from '@nudge/contracts';
import type { OutboxMessage as DevOutboxMessage } from '@nudge/platform';
import express, { type Express } from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type GatewayOptions } from '../src';

interface Echo {
  service: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bodyBase64: string;
  bodySha256: string;
}

const servers: Server[] = [];

async function start(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An upstream that echoes what it received, reading the raw body itself. */
function fakeService(name: string, seen: Echo[]): Express {
  const app = express();
  app.use((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const echo: Echo = {
        service: name,
        method: req.method,
        url: req.originalUrl,
        headers: req.headers,
        bodyBase64: body.toString('base64'),
        bodySha256: createHash('sha256').update(body).digest('hex'),
      };
      seen.push(echo);
      res.setHeader('x-powered-by', 'upstream');
      res.json(echo);
    });
  });
  return app;
}

/** A URL where nothing listens: a port that was free a moment ago. */
async function deadUrl(): Promise<string> {
  const server = express().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

const seen: Echo[] = [];
let base: string;
let limitedBase: string;
let outboxBase: string;
let ready = true;
const logs = captureLog();
const webDist = mkdtempSync(join(tmpdir(), 'nudge-web-'));
const bigAsset = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const nudge${i} = "take a breath ${i}";`).join('\n'),
);

/** A raw HTTP exchange (fetch would decode Content-Encoding itself and hide it). */
function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

beforeAll(async () => {
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Nudge web</title><div id="root"></div>');
  writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log("app");');
  // What the web build writes: each compressible file with a brotli and a gzip copy next to it.
  writeFileSync(join(webDist, 'assets', 'big-5678.js'), bigAsset);
  writeFileSync(join(webDist, 'assets', 'big-5678.js.br'), brotliCompressSync(bigAsset));
  writeFileSync(join(webDist, 'assets', 'big-5678.js.gz'), gzipSync(bigAsset));

  const auth = await start(fakeService('auth', seen));
  const content = await start(fakeService('content', seen));
  const common: Omit<GatewayOptions, 'services' | 'rateLimitPerMinute' | 'log'> = {
    // An admin's session, so that a route's larger body limit (an image) applies.
    verifier: {
      verifySession: async (token) =>
        token === 'admin-token'
          ? { userId: 'a1', email: 'admin@example.com', role: 'admin', issuedAtMs: Date.now() }
          : null,
    },
  };
  base = await start(
    createGateway({
      ...common,
      services: { auth, content, billing: await deadUrl() }, // engagement and reporting: not built yet
      webDist,
      rateLimitPerMinute: 10_000,
      readiness: async () => ({ auth: true, content: ready }),
      readinessDetail: async () => ({ deadLetters: { total: 2, groups: { 'content.users': 2 } } }),
      log: logs.log,
    }),
  );
  limitedBase = await start(
    createGateway({ services: { auth }, rateLimitPerMinute: 3, log: captureLog().log }),
  );
  const messages: DevOutboxMessage[] = [
    {
      channel: 'email',
      to: 'a@example.com',
      subject: 'Your code',
      text: 'Code 111111',
      createdAt: '2024-05-01T10:00:00.000Z',
    },
    { channel: 'whatsapp', to: '+919999999999', text: 'Code 222222', createdAt: '2024-05-01T11:00:00.000Z' },
  ];
  outboxBase = await start(
    createGateway({
      services: { auth },
      rateLimitPerMinute: 10_000,
      devOutbox: { list: async () => [...messages].reverse() }, // the port lists newest first
      log: captureLog().log,
    }),
  );
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(webDist, { recursive: true, force: true });
});

async function call(path: string, init: RequestInit = {}, at = base) {
  const res = await fetch(`${at}${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { res, text, json: json as Record<string, unknown> & Partial<Echo> };
}

const jsonPost = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

describe('routing', () => {
  it.each([
    ['POST', '/api/user/auth', 'auth'],
    ['GET', '/api/user/details/65f0c0ffee', 'auth'],
    ['POST', '/api/user/signinbytoken/tok.en-1', 'auth'],
    ['GET', '/auth/google?redirectUrl=%2Fpost%2F1', 'auth'],
    ['GET', '/api/topic/getalltopics', 'content'],
    ['POST', '/api/logs/getallpost?page=2&limit=5&topicId=t1', 'content'],
    ['GET', '/api/template/templates?page=1&limit=10', 'content'],
  ])('%s %s goes to %s with path and query unchanged', async (method, path, service) => {
    const { res, json } = await call(path, { method, ...(method === 'POST' ? jsonPost('{}') : {}) });
    expect(res.status).toBe(200);
    expect(json.service).toBe(service);
    expect(json.method).toBe(method);
    expect(json.url).toBe(path);
  });

  it('sends a specific path and a parametrised sibling to the same service, each unchanged', async () => {
    const add = await call('/api/template/add', jsonPost('{"heading":"x"}'));
    const byId = await call('/api/template/65f0c0ffee', jsonPost('{}'));
    expect(add.json).toMatchObject({ service: 'content', url: '/api/template/add' });
    expect(byId.json).toMatchObject({ service: 'content', url: '/api/template/65f0c0ffee' });
  });

  it('answers 404 JSON for an unknown /api path or method, without calling any service', async () => {
    const before = seen.length;
    const unknown = await call('/api/nope/nothing');
    expect(unknown.res.status).toBe(404);
    expect(unknown.json).toEqual({ status: false, message: 'No such API route: GET /api/nope/nothing' });
    const wrongMethod = await call('/api/user/auth');
    expect(wrongMethod.res.status).toBe(404);
    expect(wrongMethod.json.message).toBe('No such API route: GET /api/user/auth');
    expect(seen.length).toBe(before);
  });

  it('never routes /internal/*', async () => {
    const before = seen.length;
    for (const path of ['/internal/x', '/internal/users/1', '/api/internal/x']) {
      const { res, json } = await call(path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(json.status).toBe(false);
    }
    expect(seen.length).toBe(before);
  });

  it('answers 503 for a service that has no URL yet', async () => {
    const { res, json } = await call('/api/comment/comments/t1');
    expect(res.status).toBe(503);
    expect(json).toEqual({ status: false, message: 'The engagement service is not available yet' });
    const reporting = await call('/api/eventlogs/logs', jsonPost('{}'));
    expect(reporting.json.message).toBe('The reporting service is not available yet');
  });

  it('answers 503 when a service does not answer', async () => {
    const { res, json } = await call('/api/payment/checkout', jsonPost('{"token":"t"}'));
    expect(res.status).toBe(503);
    expect(json).toEqual({
      status: false,
      message: 'The billing service is not reachable right now, please retry',
    });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('bodies', () => {
  it('streams a JSON body byte for byte (spacing, key order, unicode kept)', async () => {
    const raw = '{ "b":2,   "a" : "ünïcødé ✓",\n"token":"x" }';
    const { json } = await call('/api/user/verify', jsonPost(raw));
    expect(Buffer.from(json.bodyBase64!, 'base64').toString('utf8')).toBe(raw);
    expect(json.headers?.['content-type']).toBe('application/json');
  });

  it("streams a large binary body byte for byte (an admin's, on a route that takes one)", async () => {
    const bytes = randomBytes(300_000);
    const { res, json } = await call('/api/template/add', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', authorization: 'Bearer admin-token' },
      body: bytes,
    });
    expect(res.status).toBe(200);
    expect(json.bodySha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('streams a form-encoded body untouched', async () => {
    const raw = 'a=1&b=%20two&c=';
    const { json } = await call('/api/user/auth', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: raw,
    });
    expect(Buffer.from(json.bodyBase64!, 'base64').toString('utf8')).toBe(raw);
  });
});

describe('compression', () => {
  it('compresses a service answer above 1 KB for a client that accepts it; the request body arrives untouched', async () => {
    const body = Buffer.from(JSON.stringify({ token: 't', note: 'é'.repeat(2000) }));
    const res = await raw('/api/user/isauth', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const echo = JSON.parse(gunzipSync(res.body).toString('utf8')) as Echo;
    expect(echo.bodySha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(echo.headers['content-length']).toBe(String(body.length));
  });

  it('leaves small answers and clients that do not accept compression alone', async () => {
    const small = await raw('/healthz', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ status: true });
    const body = Buffer.from(JSON.stringify({ token: 't', note: 'x'.repeat(3000) }));
    const identity = await raw('/api/user/isauth', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(identity.body.toString('utf8')) as Echo).bodySha256).toBe(
      createHash('sha256').update(body).digest('hex'),
    );
  });
});

describe('request ids and logs', () => {
  it('generates an id, sends it upstream and returns it', async () => {
    const { res, json } = await call('/api/user/auth', jsonPost('{}'));
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(json.headers?.['x-request-id']).toBe(id);
  });

  it('keeps a sane incoming id', async () => {
    const { res, json } = await call('/api/user/auth', jsonPost('{}', { 'x-request-id': 'trace.abc-123_X' }));
    expect(res.headers.get('x-request-id')).toBe('trace.abc-123_X');
    expect(json.headers?.['x-request-id']).toBe('trace.abc-123_X');
  });

  it.each([['has spaces and <html>'], ['x'.repeat(65)], ['semi;colon']])(
    'replaces a bad incoming id (%s)',
    async (bad) => {
      const { res, json } = await call('/api/user/auth', jsonPost('{}', { 'x-request-id': bad }));
      const id = res.headers.get('x-request-id');
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(json.headers?.['x-request-id']).toBe(id);
    },
  );

  it('gives gateway-made answers an id too', async () => {
    const { res } = await call('/api/nope');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('strips the internal service credential and forwards the client address', async () => {
    const { json } = await call('/api/user/auth', jsonPost('{}', { 'x-internal-token': 'forged' }));
    expect(json.headers?.['x-internal-token']).toBeUndefined();
    expect(json.headers?.['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('overwrites what a client claims about its address: a fresh X-Forwarded-For cannot dodge per-IP limits', async () => {
    for (const claimed of ['203.0.113.7', '198.51.100.1, 10.0.0.1']) {
      const { json } = await call(
        '/api/user/auth',
        jsonPost('{}', {
          'x-forwarded-for': claimed,
          forwarded: `for=${claimed}`,
          'x-forwarded-host': 'evil',
        }),
      );
      expect(json.headers?.['x-forwarded-for']).toBe('127.0.0.1');
      expect(json.headers?.forwarded).toBeUndefined();
      expect(json.headers?.['x-forwarded-host']).not.toBe('evil');
    }
  });

  it('logs one line per request, without link credentials or query strings', async () => {
    const { res } = await call('/api/user/signinbytoken/secret-link-token?a=like', { method: 'POST' });
    const id = res.headers.get('x-request-id');
    const lines = logs.lines.filter((l) => l.requestId === id && l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'POST', path: '/api/user/signinbytoken/:uid', status: 200 });
    expect(typeof lines[0]!.ms).toBe('number');
    expect(JSON.stringify(logs.lines)).not.toContain('secret-link-token');
  });
});

describe('bursts', () => {
  /** An upstream that answers after a pause, so requests pile up in the gateway's connection pool. */
  function slowService(ms: number): Express {
    const app = express();
    app.use((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.json({ status: true }), ms));
    });
    return app;
  }
  const burst = (at: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () =>
        fetch(`${at}/api/logs/getallpost?page=1&limit=5`, jsonPost('{"subscription":false}'))
          .then(async (r) => ({
            status: r.status,
            retryAfter: r.headers.get('retry-after'),
            body: await r.json(),
          }))
          .catch((err: unknown) => ({ status: 0, retryAfter: null, body: String(err) })),
      ),
    );

  it('answers every request of a burst larger than the connection pool, and keeps answering after it', async () => {
    const content = await start(slowService(150));
    const at = await start(
      createGateway({
        services: { content },
        rateLimitPerMinute: 100_000,
        maxInFlightPerClient: 1_000,
        log: captureLog().log,
      }),
    );
    const answers = await burst(at, 400);
    expect(answers.filter((a) => a.status === 0)).toEqual([]);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    const after = await fetch(`${at}/api/logs/getallpost?page=1&limit=5`, jsonPost('{}'));
    expect(after.status).toBe(200);
  });

  it('sheds load past its in-flight bound with 503 and Retry-After, then serves again', async () => {
    const content = await start(slowService(300));
    const at = await start(
      createGateway({
        services: { content },
        rateLimitPerMinute: 100_000,
        maxInFlight: 20,
        maxInFlightPerClient: 1_000,
        log: captureLog().log,
      }),
    );
    const answers = await burst(at, 100);
    const shed = answers.filter((a) => a.status === 503);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(20);
    expect(shed.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    for (const a of shed) {
      expect(a.retryAfter).toBe('1');
      expect(a.body.status).toBe(false);
    }
    expect((await fetch(`${at}/api/logs/getallpost?page=1&limit=5`, jsonPost('{}'))).status).toBe(200);
  });
});

describe('security', () => {
  it('sets security headers and hides x-powered-by, also on proxied answers', async () => {
    for (const path of ['/healthz', '/api/topic/getalltopics']) {
      const { res } = await call(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      // Our own scripts plus Razorpay's checkout, nothing else; no inline scripts.
      expect(csp).toMatch(/script-src 'self' https:\/\/checkout\.razorpay\.com(;|$)/);
      expect(csp).not.toContain("unsafe-inline' https://checkout");
      expect(csp).toMatch(/frame-src [^;]*https:\/\/api\.razorpay\.com/);
      expect(csp).toMatch(/img-src [^;]*data:/);
      expect(csp).toMatch(/img-src [^;]*blob:/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('rate limits per client with a JSON 429 after the limit', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await call('/api/user/auth', jsonPost('{}'), limitedBase);
      statuses.push(last.res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last!.json).toEqual({ status: false, message: 'Too many requests, please try again later' });
    const docs = await call('/api/docs/openapi.json', {}, limitedBase);
    expect(docs.res.status).toBe(429);
    const health = await call('/healthz', {}, limitedBase);
    expect(health.res.status).toBe(200);
  });
});

describe('probes', () => {
  it('/healthz is always 200', async () => {
    const { res, json } = await call('/healthz');
    expect(res.status).toBe(200);
    expect(json).toEqual({ status: true });
  });

  it('/readyz is 200 when every check passes and 503 otherwise; its detail (dead letters) is no failure', async () => {
    const detail = { deadLetters: { total: 2, groups: { 'content.users': 2 } } };
    ready = true;
    const ok = await call('/readyz');
    expect(ok.res.status).toBe(200);
    expect(ok.json).toEqual({ status: true, checks: { auth: true, content: true }, detail });
    ready = false;
    const notReady = await call('/readyz');
    expect(notReady.res.status).toBe(503);
    expect(notReady.json).toEqual({ status: false, checks: { auth: true, content: false }, detail });
    ready = true;
  });
});

describe('OpenAPI docs', () => {
  it('serves a JSON document with an operation for every route', async () => {
    const { res, json } = await call('/api/docs', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(json.openapi).toBe('3.1.0');
    const paths = json.paths as Record<string, Record<string, { tags: string[]; description: string }>>;
    for (const route of apiRoutes) {
      const op = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op!.tags).toEqual([route.service]);
      expect(op!.description).toContain(route.access);
    }
    expect(paths['/auth/google']?.get).toBeDefined();
    expect(paths['/api/dev/outbox']).toBeUndefined();
    expect(paths['/api/docs']).toBeUndefined();
  });

  it('always serves JSON at /api/docs/openapi.json', async () => {
    const { res, json } = await call('/api/docs/openapi.json', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(json.openapi).toBe('3.1.0');
  });

  it('serves a browsable page whose assets load from the gateway itself', async () => {
    const { res, text } = await call('/api/docs', {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const assets = [...text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/api/docs/assets/'), asset).toBe(true);
      const loaded = await fetch(`${base}${asset}`);
      expect(loaded.status, asset).toBe(200);
      await loaded.arrayBuffer();
    }
    const init = await call('/api/docs/assets/swagger-initializer.js');
    expect(init.text).toContain('/api/docs/openapi.json');
    expect(init.text).not.toContain('petstore');
  });
});

describe('web app', () => {
  it('serves index.html for a client-side route when the browser asks for HTML', async () => {
    const { res, text } = await call('/post/abc?uid=1', {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(res.status).toBe(200);
    expect(text).toContain('<title>Nudge web</title>');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
  });

  it('serves the built files', async () => {
    const { res, text } = await call('/assets/app-1234.js');
    expect(res.status).toBe(200);
    expect(text).toBe('console.log("app");');
    const root = await call('/', { headers: { accept: 'text/html' } });
    expect(root.text).toContain('Nudge web');
  });

  it('serves the precompressed copy of a built file the browser accepts, with Content-Encoding and Vary', async () => {
    const br = await raw('/assets/big-5678.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.body).equals(bigAsset)).toBe(true);
    expect(br.body.length).toBeLessThan(bigAsset.length / 3);

    const gz = await raw('/assets/big-5678.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(bigAsset)).toBe(true);

    const plain = await raw('/assets/big-5678.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(bigAsset)).toBe(true);
  });

  it('never answers /api, /auth or a missing file with index.html', async () => {
    for (const path of ['/api/not-a-route', '/auth/nothing', '/healthz/x']) {
      const { res, text, json } = await call(path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(text).not.toContain('Nudge web');
      expect(json.status).toBe(false);
    }
    const missing = await call('/assets/missing-chunk.js', { headers: { accept: '*/*' } });
    expect(missing.res.status).toBe(404);
    expect(missing.text).not.toContain('Nudge web');
  });
});

describe('dev outbox', () => {
  it('lists captured messages newest first when the topology has an outbox, and is documented', async () => {
    const { res, json } = await call('/api/dev/outbox', {}, outboxBase);
    expect(res.status).toBe(200);
    const messages = json.messages as DevOutboxMessage[];
    expect(messages.map((m) => m.text)).toEqual(['Code 222222', 'Code 111111']);
    const docs = await call('/api/docs/openapi.json', {}, outboxBase);
    expect((docs.json.paths as Record<string, unknown>)['/api/dev/outbox']).toBeDefined();
  });

  it('answers a caller reached through a proxy (someone on another machine) 403, unless opened to the network', async () => {
    const forwarded = { headers: { 'x-forwarded-for': '192.0.2.7' } };
    const { res, json } = await call('/api/dev/outbox', forwarded, outboxBase);
    expect(res.status).toBe(403);
    expect(json).toEqual({
      status: false,
      message:
        'The dev outbox answers only on the machine Nudge runs on (DEV_OUTBOX_REMOTE=on opens it to the network)',
    });
    const opened = await start(
      createGateway({
        services: {},
        rateLimitPerMinute: 10_000,
        devOutbox: { list: async () => [] },
        devOutboxRemote: true,
        log: captureLog().log,
      }),
    );
    expect((await call('/api/dev/outbox', forwarded, opened)).res.status).toBe(200);
  });

  it('does not exist otherwise', async () => {
    const { res, json } = await call('/api/dev/outbox');
    expect(res.status).toBe(404);
    expect(json.status).toBe(false);
  });
});

describe('link previews of shared posts', () => {
  it('point og:url and og:image at PUBLIC_URL, whatever Host the client sends', async () => {
    const content = express();
    content.post('/api/template/:id', (req, res) => {
      res.json({
        status: true,
        template: {
          _id: req.params.id,
          heading: 'Breathe',
          body: 'In and out.',
          image: '/media/calm.png',
          type: 0,
        },
      });
    });
    content.get('/api/sitesettings/fetch', (_req, res) => {
      res.json({ status: true, settings: { sitetitle: 'Nudge' } });
    });
    const shell = mkdtempSync(join(tmpdir(), 'nudge-web-shell-'));
    writeFileSync(
      join(shell, 'index.html'),
      '<!doctype html><html><head><title>Nudge</title></head><body></body></html>',
    );
    const at = await start(
      createGateway({
        services: { content: await start(content) },
        webDist: shell,
        publicUrl: 'https://nudge.example.com/',
        rateLimitPerMinute: 10_000,
        log: captureLog().log,
      }),
    );
    const { port } = new URL(at);
    const page = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/post/abc123',
          headers: { host: 'evil.example', accept: 'text/html' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(page).toContain('<meta property="og:url" content="https://nudge.example.com/post/abc123" />');
    expect(page).toContain('<meta property="og:image" content="https://nudge.example.com/media/calm.png" />');
    expect(page).not.toContain('evil.example');
    rmSync(shell, { recursive: true, force: true });
  });
});
