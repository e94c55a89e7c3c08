import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_KEEP_ALIVE_TIMEOUT_MS } from '../server-timeouts';
import { startTracing, withConsumerSpan } from '../tracing';
import { BusinessRefusal, createInternalClient, ServiceUnavailable } from './internal-client';

const TOKEN = 't'.repeat(40);
let server: Server;
let base = '';
let connections = 0;
const seen: { method?: string; url?: string; token?: unknown; body: string }[] = [];
const traceparents: unknown[] = [];

/** What the fake service answers, by path. */
function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  switch (req.url) {
    case '/echo':
      return json(200, { status: true, got: body ? JSON.parse(body) : null });
    case '/refused':
      return json(409, { status: false, message: 'already done' });
    case '/refused-bare':
      res.writeHead(404);
      return res.end('no');
    case '/broken':
      return json(500, { status: false, message: 'boom' });
    case '/not-json':
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<p>hello</p>');
    case '/slow':
      return void setTimeout(() => json(200, { status: true }), 400);
    case '/cut':
      // Promises 1000 bytes, sends a few, then the connection goes.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      res.write('{"status":tr');
      return void setTimeout(() => res.socket?.destroy(), 20);
    default:
      return json(404, { status: false, message: `No such route: ${req.url}` });
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method, url: req.url, token: req.headers['x-internal-token'], body });
      traceparents.push(req.headers.traceparent);
      answer(req, res, body);
    });
  });
  server.keepAliveTimeout = SERVER_KEEP_ALIVE_TIMEOUT_MS;
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = createInternalClient({ internalToken: TOKEN });

/** The error a call fails with (a call that succeeds fails the test). */
async function failureOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (err) {
    return err as Error & { status?: number; cause?: { message?: string; cause?: { code?: string } } };
  }
  throw new Error('the call did not fail');
}

describe('the internal HTTP client (every call of one service to another)', () => {
  it('sends the body as JSON with the internal credential and answers the JSON', async () => {
    seen.length = 0;
    const got = await client.call<{ got: unknown }>('auth', base, '/echo', {
      body: { userIds: ['a', 'é'] },
      timeoutMs: 1_000,
    });
    expect(got.got).toEqual({ userIds: ['a', 'é'] });
    expect(seen).toEqual([
      { method: 'POST', url: '/echo', token: TOKEN, body: JSON.stringify({ userIds: ['a', 'é'] }) },
    ]);
    // A GET (no body); a client without a credential sends none.
    const anonymous = createInternalClient({});
    expect((await anonymous.exchange(base, '/echo', { timeoutMs: 1_000 })).status).toBe(200);
    expect(seen[1]).toMatchObject({ method: 'GET', token: undefined, body: '' });
  });

  it("carries the caller's trace context", async () => {
    startTracing({ serviceName: 'internal-client-test' });
    traceparents.length = 0;
    const trace = '0af7651916cd43dd8448eb211c80319c';
    await withConsumerSpan('a message', { traceparent: `00-${trace}-b7ad6b7169203331-01` }, {}, () =>
      client.call('auth', base, '/echo', { body: {}, timeoutMs: 1_000 }),
    );
    expect(traceparents[0]).toMatch(new RegExp(`^00-${trace}-[0-9a-f]{16}-01$`));
  });

  it('makes many calls over one kept-alive connection', async () => {
    const before = connections;
    for (let i = 0; i < 20; i++) await client.call('auth', base, '/echo', { body: { i }, timeoutMs: 1_000 });
    // At most one new connection for 20 calls (none when the first test's is still open).
    expect(connections - before).toBeLessThanOrEqual(1);
    // Calls at once take a connection each, and those are kept for the next calls too.
    await Promise.all(
      [1, 2, 3].map((i) => client.call('auth', base, '/echo', { body: { i }, timeoutMs: 1_000 })),
    );
    const pooled = connections;
    for (let i = 0; i < 10; i++) await client.call('auth', base, '/echo', { body: { i }, timeoutMs: 1_000 });
    expect(connections).toBe(pooled);
  });

  it('a 4xx is a business refusal (its message, else the status); a 5xx or an answer not JSON is unavailable', async () => {
    const refused = await failureOf(
      client.call('engagement', base, '/refused', { body: {}, timeoutMs: 1_000 }),
    );
    expect(refused).toBeInstanceOf(BusinessRefusal);
    expect(refused).toMatchObject({ status: 409, message: 'engagement /refused: already done' });
    const bare = await failureOf(
      client.call('engagement', base, '/refused-bare', { body: {}, timeoutMs: 1_000 }),
    );
    expect(bare).toMatchObject({
      name: 'BusinessRefusal',
      status: 404,
      message: 'engagement /refused-bare: 404',
    });
    const broken = await failureOf(
      client.call('engagement', base, '/broken', { body: {}, timeoutMs: 1_000 }),
    );
    expect(broken).toBeInstanceOf(ServiceUnavailable);
    expect(broken.message).toBe('engagement /broken answered 500');
    const html = await failureOf(client.call('content', base, '/not-json', { timeoutMs: 1_000 }));
    expect(html).toBeInstanceOf(ServiceUnavailable);
    // The raw exchange gives the status and no JSON.
    expect(await client.exchange(base, '/not-json', { timeoutMs: 1_000 })).toEqual({
      status: 200,
      body: null,
    });
    // And the next call still works.
    expect(await client.call('auth', base, '/echo', { body: { ok: 1 }, timeoutMs: 1_000 })).toMatchObject({
      got: { ok: 1 },
    });
  });

  it('is unavailable when the answer misses the deadline, is cut off, or the service is not there', async () => {
    const started = Date.now();
    const slow = await failureOf(client.call('auth', base, '/slow', { body: {}, timeoutMs: 100 }));
    expect(slow).toBeInstanceOf(ServiceUnavailable);
    expect(slow.message).toBe('auth did not answer /slow');
    expect(String(slow.cause?.message)).toContain('within 100 ms');
    expect(Date.now() - started).toBeLessThan(350);

    const cut = await failureOf(client.call('auth', base, '/cut', { body: {}, timeoutMs: 2_000 }));
    expect(cut).toBeInstanceOf(ServiceUnavailable);

    const gone = createServer();
    gone.listen(0, '127.0.0.1');
    await once(gone, 'listening');
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const refused = await failureOf(
      client.call('auth', `http://127.0.0.1:${port}`, '/echo', { body: {}, timeoutMs: 1_000 }),
    );
    expect(refused).toBeInstanceOf(ServiceUnavailable);
    expect(refused.cause?.cause?.code).toBe('ECONNREFUSED');

    const unknown = await failureOf(client.call('auth', undefined, '/echo', { body: {}, timeoutMs: 1_000 }));
    expect(unknown).toMatchObject({
      name: 'ServiceUnavailable',
      message: 'the auth service URL is not configured',
    });
  });
});
