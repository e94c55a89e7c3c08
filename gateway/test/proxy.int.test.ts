import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import express, { type Express } from 'express';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../src';

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function listen(app: Express): Promise<string> {
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A service whose keep-alive connections die the way they do when the service closes an idle connection just as the
 * gateway reuses it: the first request on a connection is answered (keep-alive), the second one on the same
 * connection gets a reset instead of an answer. Every answer echoes the request's body.
 */
async function resettingService() {
  const received: string[] = [];
  let resets = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket: Socket) => {
    sockets.add(socket);
    let answered = 0;
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString();
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString();
        buffer = buffer.subarray(end + 4 + length);
        if (answered === 1) {
          resets += 1;
          socket.resetAndDestroy();
          return;
        }
        answered += 1;
        received.push(body);
        const answer = JSON.stringify({ status: true, echo: body });
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(answer)}\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n${answer}`,
        );
      }
    });
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    resets: () => resets,
  };
}

const log = pino({ level: 'silent' });

describe('the HTTP proxy to a service', () => {
  it('sends a request again, body and all, when the pooled connection it got was reset before any answer', async () => {
    const auth = await resettingService();
    const gateway = await listen(
      createGateway({ services: { auth: auth.url }, rateLimitPerMinute: 1000, log }),
    );
    const post = (body: string) =>
      fetch(`${gateway}/api/user/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });

    const first = await post('{"email":"a@example.com"}');
    expect(first.status).toBe(200);
    // The same pooled connection is reused, and reset: the gateway sends it again on a new one.
    const second = await post('{"email":"b@example.com"}');
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ status: true, echo: '{"email":"b@example.com"}' });
    expect(auth.resets()).toBe(1);
    const third = await post('{"email":"c@example.com"}');
    expect(third.status).toBe(200);
    expect(auth.received).toEqual([
      '{"email":"a@example.com"}',
      '{"email":"b@example.com"}',
      '{"email":"c@example.com"}',
    ]);
  });

  it('still answers 503 when the new connection fails too (one retry, never a loop)', async () => {
    // Every connection is reset at its first request: nothing is ever answered.
    const server = createServer((socket) => {
      socket.once('data', () => socket.resetAndDestroy());
      socket.on('error', () => {});
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(async () => {
      await new Promise((resolve) => server.close(resolve));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const gateway = await listen(createGateway({ services: { auth: url }, rateLimitPerMinute: 1000, log }));
    const reply = await fetch(`${gateway}/api/user/auth`, { method: 'POST', body: '{}' });
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({
      status: false,
      message: 'The auth service is not reachable right now, please retry',
    });
  });
});

describe('a service app in the same process (the standalone topology)', () => {
  /** What the service saw of the request. */
  const echoApp = (name: string) => {
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(express.json());
    app.use((req, res) => {
      res.json({
        service: name,
        url: req.originalUrl,
        ip: req.ip,
        protocol: req.protocol,
        body: req.body,
        requestId: req.headers['x-request-id'],
        forwardedFor: req.headers['x-forwarded-for'],
        internalToken: req.headers['x-internal-token'] ?? null,
      });
    });
    return app;
  };

  it('gets the request without a second HTTP hop, with the headers and client address a proxied one gets', async () => {
    const gateway = await listen(
      createGateway({
        services: {},
        apps: { auth: echoApp('auth'), content: echoApp('content') },
        rateLimitPerMinute: 1000,
        // One load balancer in front: the client is the last address it adds.
        trustProxy: 1,
        log,
      }),
    );
    const reply = await fetch(`${gateway}/api/logs/getallpost?page=2&limit=5`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.7',
        'x-internal-token': 'forged',
        'x-request-id': 'client-id-1',
      },
      body: '{"subscription":false}',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-id')).toBe('client-id-1');
    expect(await reply.json()).toEqual({
      service: 'content',
      url: '/api/logs/getallpost?page=2&limit=5',
      ip: '203.0.113.7',
      protocol: 'http',
      body: { subscription: false },
      requestId: 'client-id-1',
      forwardedFor: '203.0.113.7',
      internalToken: null,
    });
    const auth = await fetch(`${gateway}/api/user/isauth`, { method: 'POST', body: '{}' });
    expect(((await auth.json()) as { service: string }).service).toBe('auth');
    const unknown = await fetch(`${gateway}/api/nope`);
    expect(unknown.status).toBe(404);
  });
});
