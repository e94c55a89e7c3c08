import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, finishApp } from './app';

let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = createHttpApp({ log: pino({ level: 'silent' }), bodyLimit: '1kb', service: 'test' });
  app.post('/echo', (req, res) => {
    res.json({ status: true, body: req.body ?? null });
  });
  finishApp(app, pino({ level: 'silent' }));
  const outer = express();
  outer.use(app);
  const server = outer.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

const post = async (body: string | Uint8Array, headers: Record<string, string>) => {
  const res = await fetch(`${url}/echo`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
  });
  return {
    status: res.status,
    body: (await res.json()) as { status: boolean; body?: unknown; message?: string },
  };
};

describe('JSON request bodies (createHttpApp)', () => {
  it('parses plain JSON, with or without charset, and a byte order mark', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await post('{"a":[1,"ü"]}', { 'content-type': type });
      expect(res, type).toEqual({ status: 200, body: { status: true, body: { a: [1, 'ü'] } } });
    }
    const bom = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[true]')]), {
      'content-type': 'application/json',
    });
    expect(bom.body.body).toEqual([true]);
  });

  it('an empty JSON body is {}', async () => {
    expect((await post('', { 'content-type': 'application/json' })).body.body).toEqual({});
  });

  it('parses a compressed body (read by express.json)', async () => {
    const res = await post(gzipSync('{"zipped":true}'), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(res.body.body).toEqual({ zipped: true });
  });

  it('refuses what is not an object or array, or not JSON, with a clear 400', async () => {
    for (const text of ['"text"', '42', '   ', '{"a":', '{"a":1}x']) {
      const res = await post(text, { 'content-type': 'application/json' });
      expect(res, text).toEqual({
        status: 400,
        body: { status: false, message: 'The request body is not valid JSON' },
      });
    }
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await post(JSON.stringify({ a: 'x'.repeat(2000) }), { 'content-type': 'application/json' });
    expect(res).toEqual({ status: 413, body: { status: false, message: 'The request body is too large' } });
  });

  it('leaves a body of another type alone, and refuses a charset it cannot read with 415', async () => {
    expect((await post('a=1', { 'content-type': 'application/x-www-form-urlencoded' })).body.body).toBeNull();
    const res = await post('{}', { 'content-type': 'application/json; charset=klingon' });
    expect(res.status).toBe(415);
  });
});
