import type { Server } from 'node:http';
import { connect } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from './metrics';
import { listen } from './runtime';
import type { ServerTimeouts } from './server-timeouts';

// The timeouts every server of the product listens with (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS,
// HTTP_IDLE_TIMEOUT_MS): a client cannot hold a connection with a request it never finishes sending.

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serverWith(timeouts: ServerTimeouts) {
  const app = express();
  app.post('/echo', express.json(), (req, res) => {
    res.json({ status: true, body: req.body });
  });
  app.get('/ok', (_req, res) => {
    res.json({ status: true });
  });
  const { server, url } = await listen(app, 0, '127.0.0.1', timeouts);
  servers.push(server);
  return new URL(url);
}

/** A connection written by hand: what the server sent, and when (ms after connecting) it closed the connection. */
function connection(url: URL) {
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.on('error', () => {});
  const opened = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.once('close', () => resolve({ afterMs: performance.now() - opened, received })),
  );
  return { socket, closed, received: () => received };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('server timeouts', () => {
  it('answers 408 and closes a connection whose headers do not arrive in time', async () => {
    const url = await serverWith({ headersMs: 300, requestMs: 5_000, idleMs: 5_000 });
    const slow = connection(url);
    slow.socket.write('POST /echo HTTP/1.1\r\nHost: nudge.test\r\n');
    const { afterMs, received } = await slow.closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(250);
    expect(afterMs).toBeLessThan(1_500);
  });

  it('answers 408 and closes a connection whose body trickles in for longer than the request timeout', async () => {
    const url = await serverWith({ headersMs: 300, requestMs: 800, idleMs: 5_000 });
    const slow = connection(url);
    slow.socket.write(
      'POST /echo HTTP/1.1\r\nHost: nudge.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
    );
    // A byte every 100 ms: never idle, never done.
    const trickle = setInterval(() => slow.socket.write(' '), 100);
    const { afterMs, received } = await slow.closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeGreaterThanOrEqual(750);
    expect(afterMs).toBeLessThan(2_500);
  });

  it('closes a connection that goes silent while its request is open', async () => {
    const url = await serverWith({ headersMs: 300, requestMs: 5_000, idleMs: 400 });
    const stalled = connection(url);
    stalled.socket.write(
      'POST /echo HTTP/1.1\r\nHost: nudge.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const { afterMs } = await stalled.closed;
    expect(afterMs).toBeGreaterThanOrEqual(350);
    expect(afterMs).toBeLessThan(2_000);
  });

  it('keeps a kept-alive connection between requests for longer than the header timeout', async () => {
    const url = await serverWith({ headersMs: 200, requestMs: 400, idleMs: 400 });
    const kept = connection(url);
    const get = 'GET /ok HTTP/1.1\r\nHost: nudge.test\r\n\r\n';
    kept.socket.write(get);
    await pause(800);
    kept.socket.write(get);
    await pause(100);
    expect(kept.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    kept.socket.destroy();
  });

  it('applies to the metrics server too', async () => {
    const metrics = await startMetricsServer(0, '127.0.0.1', {
      headersMs: 300,
      requestMs: 5_000,
      idleMs: 5_000,
    });
    try {
      const slow = connection(new URL(metrics.url));
      slow.socket.write('GET /metrics HTTP/1.1\r\n');
      const { afterMs, received } = await slow.closed;
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(afterMs).toBeLessThan(1_500);
    } finally {
      await metrics.close();
    }
  });
});
