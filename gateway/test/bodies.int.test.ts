import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { largeBodyRoutes } from '@nudge/contracts';
import { createHttpApp, finishApp, listen, type TokenVerifier } from '@nudge/platform';
import type { Express } from 'express';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway, type GatewayOptions } from '../src';

// What the gateway does with request bodies before a service sees them: the route's limit (BODY_LIMIT, or a larger one
// for an admin's image), checked before the body is read; the whole body awaited before the request counts against
// the in-flight limit; a bound on the requests one address has open. On both ways to a service: its app in this process
// (the standalone topology) and its URL over HTTP (the container topology).

const log = pino({ level: 'silent' });
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(app: Express): Promise<string> {
  const { server, url } = await listen(app, 0);
  servers.push(server);
  return url;
}

/** Session tokens by name: 'admin-token' is an admin's, 'user-token' a reader's; anything else is no session. */
const verifier: TokenVerifier = {
  async verifySession(token) {
    if (token === 'admin-token')
      return { userId: 'a1', email: 'admin@example.com', role: 'admin', issuedAtMs: Date.now() };
    if (token === 'user-token')
      return { userId: 'u1', email: 'user@example.com', role: 'user', issuedAtMs: Date.now() };
    return null;
  },
};

/** A service built on the http kit (its JSON bodies, the contract's large-body routes), counting what reaches it. */
function service() {
  const hits: { path: string; body: unknown }[] = [];
  const app = createHttpApp({
    log,
    bodyLimit: '100kb',
    service: 'bodies-test',
    largeBodies: largeBodyRoutes('content'),
  });
  app.use((req, res) => {
    hits.push({ path: req.path, body: req.body });
    const text = JSON.stringify(req.body ?? null);
    res.json({ status: true, size: text.length, sha: createHash('sha256').update(text).digest('hex') });
  });
  return { app: finishApp(app, log), hits };
}

const TOPOLOGIES = ['in process', 'over HTTP'] as const;

/** A gateway in front of a counting service, by the given way, with `options` on top. */
async function gatewayFor(topology: (typeof TOPOLOGIES)[number], options: Partial<GatewayOptions> = {}) {
  const upstream = service();
  const to =
    topology === 'in process'
      ? { services: {}, apps: { auth: upstream.app, content: upstream.app } }
      : { services: { auth: await serve(upstream.app), content: await serve(upstream.app) } };
  const url = await serve(
    createGateway({ ...to, rateLimitPerMinute: 100_000, bodyLimit: '100kb', verifier, log, ...options }),
  );
  return { url, hits: upstream.hits };
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A request written by hand on its own connection (from `localAddress`, another loopback address for another
 * client): `head` is sent at once, the rest with `send`. `reply` resolves with the first answer, `closed` when the
 * server has closed the connection.
 */
function rawRequest(base: string, head: string, localAddress = '127.0.0.1') {
  const { hostname, port } = new URL(base);
  const socket: Socket = connect({ host: hostname, port: Number(port), localAddress });
  socket.on('error', () => {});
  let received = Buffer.alloc(0);
  let answered = false;
  const reply = new Promise<Reply>((resolve) => {
    const tryParse = () => {
      const end = received.indexOf('\r\n\r\n');
      if (answered || end < 0) return;
      const lines = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.slice(1).map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
        }),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (received.length < end + 4 + length) return;
      answered = true;
      resolve({
        status: Number(lines[0]?.split(' ')[1]),
        headers,
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse();
    });
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  return {
    socket,
    reply,
    closed,
    answeredYet: () => answered,
    send: (data: string | Buffer) => new Promise<void>((resolve) => socket.write(data, () => resolve())),
  };
}

const post = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nHost: nudge.test\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: nothing in ${ms} ms`)), ms),
    ),
  ]);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(TOPOLOGIES)('request bodies at the gateway (a service %s)', (topology) => {
  it("refuses a Content-Length over the route's limit with 413 before a byte of the body is sent, and closes the connection", async () => {
    const { url, hits } = await gatewayFor(topology);
    for (const [path, length, limit] of [
      ['/api/user/isauth', 200_000, '100 KB'],
      ['/api/template/add', 9_000_000, '100 KB'],
    ] as const) {
      const raw = rawRequest(
        url,
        post(path, { 'content-type': 'application/json', 'content-length': length }),
      );
      const reply = await within(raw.reply, 2_000, path);
      expect(reply.status, path).toBe(413);
      expect(JSON.parse(reply.body)).toEqual({
        status: false,
        message: expect.stringContaining(`The request body is too large: at most ${limit} here`),
      });
      await within(raw.closed, 2_000, `${path}: the connection closing`);
    }
    expect(hits).toEqual([]);
  });

  it('cuts a chunked body at the limit with 413, without reading the rest', async () => {
    const { url, hits } = await gatewayFor(topology);
    const raw = rawRequest(
      url,
      post('/api/user/isauth', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
    );
    const piece = `{"token":"${'x'.repeat(40_000)}"}`;
    let sent = 0;
    while (!raw.answeredYet() && sent < 20) {
      await raw.send(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      sent += 1;
      await pause(30);
    }
    const reply = await raw.reply;
    expect(reply.status).toBe(413);
    // 100 KB is passed within the third 40 KB piece; the answer comes before the client has sent much more.
    expect(sent).toBeLessThanOrEqual(5);
    await within(raw.closed, 2_000, 'the connection closing');
    expect(hits).toEqual([]);
  });

  it("reads a body above BODY_LIMIT only for an admin's session in the Authorization header", async () => {
    const { url, hits } = await gatewayFor(topology);
    const body = (extra: Record<string, unknown> = {}) =>
      JSON.stringify({ heading: 'Big', image: `data:image/png;base64,${'A'.repeat(300_000)}`, ...extra });
    const send = (text: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/api/template/add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: text,
      });
    for (const [who, reply] of [
      ['anonymous', await send(body())],
      ['a reader', await send(body(), { authorization: 'Bearer user-token' })],
      ['a forged token', await send(body(), { authorization: 'Bearer forged' })],
      ["an admin's token in the body only", await send(body({ token: 'admin-token' }))],
    ] as const) {
      expect(reply.status, who).toBe(413);
      expect((await reply.json()).message, who).toBe(
        'The request body is too large: at most 100 KB here; an admin may send up to 8 MB with their session token in the Authorization header',
      );
    }
    expect(hits).toEqual([]);
    const admin = await send(body(), { authorization: 'Bearer admin-token' });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toMatchObject({ status: true, size: body().length });
    // Even an admin's body has the route's limit, refused before it is read.
    const tooLarge = rawRequest(
      url,
      post('/api/template/add', {
        'content-type': 'application/json',
        'content-length': 9_000_000,
        authorization: 'Bearer admin-token',
      }),
    );
    expect((await within(tooLarge.reply, 2_000, 'an admin over 8 MB')).status).toBe(413);
    expect(hits).toHaveLength(1);
  });

  it('counts a request against the in-flight limit only once its body has arrived: slow bodies leave room for everyone', async () => {
    const { url, hits } = await gatewayFor(topology, { maxInFlight: 3 });
    const body = JSON.stringify({ token: 'x'.repeat(88) });
    expect(body.length).toBe(100);
    const slow = Array.from({ length: 8 }, () =>
      rawRequest(
        url,
        post('/api/user/isauth', { 'content-type': 'application/json', 'content-length': 100 }),
      ),
    );
    for (const raw of slow) await raw.send(body.slice(0, 1));
    await pause(100);
    const started = performance.now();
    const reader = await fetch(`${url}/api/user/isauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"token":"t"}',
    });
    expect(reader.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(slow.filter((raw) => raw.answeredYet())).toEqual([]);
    // Each slow body, once complete, reaches the service whole.
    for (const raw of slow) {
      await raw.send(body.slice(1));
      const reply = await within(raw.reply, 2_000, 'a slow body completed');
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body).size).toBe(body.length);
      raw.socket.destroy();
    }
    expect(hits).toHaveLength(9);
  });

  it('passes a body that arrives in pieces, or chunked, on whole', async () => {
    const { url } = await gatewayFor(topology);
    const body = JSON.stringify({ token: 't', padding: 'é'.repeat(5_000) });
    const length = Buffer.byteLength(body);
    const pieces = rawRequest(
      url,
      post('/api/user/isauth', { 'content-type': 'application/json', 'content-length': length }),
    );
    const bytes = Buffer.from(body);
    for (const [from, to] of [
      [0, 1],
      [1, 4_001],
      [4_001, length],
    ] as const) {
      await pieces.send(bytes.subarray(from, to));
      await pause(20);
    }
    const sha = createHash('sha256').update(body).digest('hex');
    expect(JSON.parse((await within(pieces.reply, 2_000, 'a body in pieces')).body)).toEqual({
      status: true,
      size: body.length,
      sha,
    });
    const chunked = rawRequest(
      url,
      post('/api/user/isauth', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }),
    );
    await chunked.send(`${(4_000).toString(16)}\r\n`);
    await chunked.send(bytes.subarray(0, 4_000));
    await chunked.send(`\r\n${(length - 4_000).toString(16)}\r\n`);
    await pause(20);
    await chunked.send(Buffer.concat([bytes.subarray(4_000), Buffer.from('\r\n0\r\n\r\n')]));
    expect(JSON.parse((await within(chunked.reply, 2_000, 'a chunked body')).body)).toEqual({
      status: true,
      size: body.length,
      sha,
    });
    pieces.socket.destroy();
    chunked.socket.destroy();
  });
});

describe('requests open at once per client address', () => {
  it('answers 429 and closes the connection past the bound; other addresses are served', async () => {
    const { url } = await gatewayFor('in process', { maxInFlightPerClient: 4 });
    const head = post('/api/user/isauth', { 'content-type': 'application/json', 'content-length': 100 });
    // Another client: a second loopback address (Linux routes all of 127.0.0.0/8 to this machine).
    const held = Array.from({ length: 4 }, () => rawRequest(url, head, '127.0.0.2'));
    await pause(150);
    const refused = Array.from({ length: 2 }, () => rawRequest(url, head, '127.0.0.2'));
    for (const raw of refused) {
      const reply = await within(raw.reply, 2_000, 'a request past the bound');
      expect(reply.status).toBe(429);
      expect(reply.headers['retry-after']).toBe('1');
      expect(JSON.parse(reply.body)).toEqual({
        status: false,
        message: 'Too many requests at once from your address; please retry in a moment',
      });
      await within(raw.closed, 2_000, 'a refused connection closing');
    }
    expect(held.filter((raw) => raw.answeredYet())).toEqual([]);
    const reader = await fetch(`${url}/api/user/isauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"token":"t"}',
    });
    expect(reader.status).toBe(200);
    // Once the held requests are gone, the address has its share again.
    for (const raw of held) raw.socket.destroy();
    await Promise.all(held.map((raw) => raw.closed));
    await pause(50);
    const again = rawRequest(url, head, '127.0.0.2');
    await again.send(JSON.stringify({ token: 'x'.repeat(88) }));
    expect((await within(again.reply, 2_000, 'the address again')).status).toBe(200);
    again.socket.destroy();
  });
});
