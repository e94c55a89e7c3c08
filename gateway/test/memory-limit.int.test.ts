import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { memoryRateLimit } from '../src/memory-limit';

const refuse = (_req: express.Request, res: express.Response) => {
  res.status(429).json({ status: false, message: 'Too many requests, please try again later' });
};
const servers: import('node:http').Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

async function serve(limit: RequestHandler): Promise<string> {
  const app = express();
  app.use(limit);
  app.get('/x', (_req, res) => {
    res.json({ status: true });
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
}

const answers = async (url: string, n: number, headers: Record<string, string> = {}) => {
  const out: Array<{ status: number; limit: string | null; policy: string | null; retry: string | null }> =
    [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, { headers });
    await res.text();
    out.push({
      status: res.status,
      limit: res.headers.get('ratelimit'),
      policy: res.headers.get('ratelimit-policy'),
      retry: res.headers.get('retry-after'),
    });
  }
  return out;
};

describe('memoryRateLimit (the standalone gateway’s limit)', () => {
  it('answers as express-rate-limit’s memory store does: the same statuses and headers, 429 with Retry-After', async () => {
    const keyOf = (req: express.Request) => ipKeyGenerator(req.ip ?? '');
    const ours = await serve(memoryRateLimit({ limit: 3, windowMs: 60_000, keyOf, refuse }));
    const theirs = await serve(
      rateLimit({
        windowMs: 60_000,
        limit: 3,
        standardHeaders: 'draft-7',
        legacyHeaders: false,
        keyGenerator: keyOf,
        handler: refuse,
      }),
    );
    const got = await answers(ours, 5);
    expect(got.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(got).toEqual(await answers(theirs, 5));
    expect(got[0]).toEqual({
      status: 200,
      limit: 'limit=3, remaining=2, reset=60',
      policy: '3;w=60',
      retry: null,
    });
    expect(got[4]).toEqual({
      status: 429,
      limit: 'limit=3, remaining=0, reset=60',
      policy: '3;w=60',
      retry: '60',
    });
  });

  it('counts each client on its own and starts a new window when the old one has ended', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const url = await serve(
        memoryRateLimit({
          limit: 1,
          windowMs: 1_000,
          keyOf: (req) => String(req.headers['x-client']),
          refuse,
        }),
      );
      expect((await answers(url, 2, { 'x-client': 'a' })).map((a) => a.status)).toEqual([200, 429]);
      expect((await answers(url, 1, { 'x-client': 'b' })).map((a) => a.status)).toEqual([200]);
      vi.setSystemTime(Date.now() + 1_001);
      expect((await answers(url, 2, { 'x-client': 'a' })).map((a) => a.status)).toEqual([200, 429]);
    } finally {
      vi.useRealTimers();
    }
  });
});
