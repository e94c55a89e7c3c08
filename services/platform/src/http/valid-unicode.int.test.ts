import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, finishApp } from './app';

// Every string a route reads is valid Unicode: the http kit refuses the rest with a 400 before any route runs.

let url: string;
let close: () => Promise<void>;
/** What the routes were handed: nothing may reach them when the kit refuses. */
const seen: unknown[] = [];

beforeAll(async () => {
  const log = pino({ level: 'silent' });
  const app = createHttpApp({
    log,
    bodyLimit: '10kb',
    service: 'test',
    largeBodies: [{ route: 'POST /large', limit: '100kb' }],
  });
  const echo: express.RequestHandler = (req, res) => {
    seen.push({ body: req.body, query: req.query, params: req.params });
    res.json({ status: true, body: req.body ?? null, query: req.query, params: req.params });
  };
  app.post('/echo', echo);
  app.post('/large', echo);
  app.get('/items/:id', echo);
  finishApp(app, log);
  const outer = express();
  outer.use(app);
  const server = outer.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

type Reply = { status: number; body: { status: boolean; message?: string; [k: string]: unknown } };

/** A raw request (fetch would re-encode the target and the body), answered as JSON. */
const send = (method: string, target: string, body?: Buffer | string, headers: Record<string, string> = {}) =>
  new Promise<Reply>((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = request({ hostname, port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
const json = { 'content-type': 'application/json' };

describe('valid Unicode (createHttpApp)', () => {
  it('refuses a JSON body whose string holds a lone surrogate, naming the field; the route never runs', async () => {
    seen.length = 0;
    for (const [text, field] of [
      ['{"eventType":"page_visit","eventValue":"x\\ud800"}', 'eventValue'],
      ['{"a":{"b":["ok","\\udc00"]}}', 'a.b.1'],
      ['["\\ud83d"]', '0'],
      ['{"metadata":{"\\ud800k":"v"}}', 'metadata.\ufffdk'],
    ] as const) {
      const res = await send('POST', '/echo', text, json);
      expect(res, text).toEqual({
        status: 400,
        body: {
          status: false,
          message: `${field} in the request body is not valid Unicode text (it holds a lone surrogate)`,
        },
      });
    }
    // the same through express.json (compressed) and the larger limit's parser
    const gz = await send('POST', '/echo', gzipSync('{"v":"\\ud800"}'), {
      ...json,
      'content-encoding': 'gzip',
    });
    expect(gz.status).toBe(400);
    expect((await send('POST', '/large', '{"v":"\\ud800"}', json)).status).toBe(400);
    expect(seen).toEqual([]);
  });

  it('accepts well-formed text: surrogate pairs, escaped or raw, and a deep body', async () => {
    const res = await send('POST', '/echo', '{"a":"\\ud83d\\ude00 😀 ü","b":[null,1,true]}', json);
    expect(res).toMatchObject({ status: 200, body: { body: { a: '😀 😀 ü', b: [null, 1, true] } } });
    let deep = '"x"';
    for (let i = 0; i < 2000; i++) deep = `[${deep}]`;
    expect((await send('POST', '/echo', deep, json)).status).toBe(200);
    deep = '"\\ud800"';
    for (let i = 0; i < 2000; i++) deep = `{"a":${deep}}`;
    const refused = await send('POST', '/large', deep, json);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^a\.a\.a\..*\.a in the request body is not valid Unicode/);
  });

  it('refuses a JSON body whose bytes are not UTF-8', async () => {
    const bad = Buffer.concat([Buffer.from('{"v":"x'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const expected = { status: 400, body: { status: false, message: 'The request body is not valid UTF-8' } };
    expect(await send('POST', '/echo', bad, json)).toEqual(expected);
    // read by express.json (compressed): the same rule
    expect(await send('POST', '/echo', gzipSync(bad), { ...json, 'content-encoding': 'gzip' })).toEqual(
      expected,
    );
    // an encoded surrogate (CESU-8) is not UTF-8 either
    const cesu = Buffer.concat([Buffer.from('{"v":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expect(await send('POST', '/echo', cesu, json)).toEqual(expected);
  });

  it('refuses a query or a path whose percent-escapes are not UTF-8, and accepts those that are', async () => {
    const refused = {
      status: 400,
      body: {
        status: false,
        message: 'The request URL is not valid UTF-8: percent-escapes must spell UTF-8 text',
      },
    };
    for (const target of [
      '/echo?page=%FF',
      '/echo?q=%ED%A0%80',
      '/echo?q=%C0%AF',
      '/echo?%FF=1',
      '/echo?q=%E0%A4%A',
    ])
      expect(await send('POST', target, '{}', json), target).toEqual(refused);
    expect(await send('GET', '/items/%ED%A0%80')).toEqual(refused);
    expect(await send('GET', '/items/%FF')).toEqual(refused);
    // malformed percent-encoding in a path parameter: a 400 that says so
    expect(await send('GET', '/items/%zz')).toEqual({
      status: 400,
      body: { status: false, message: 'The request path is not valid percent-encoding' },
    });
    const ok = await send('GET', '/items/%E2%9C%93?q=%C3%BC%20%F0%9F%98%80&r=100%');
    expect(ok).toMatchObject({ status: 200, body: { params: { id: '✓' }, query: { q: 'ü 😀', r: '100%' } } });
  });
});
