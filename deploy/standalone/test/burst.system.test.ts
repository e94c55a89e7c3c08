import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Standalone } from '../src/index';
import { gatewayClient } from './helpers';
import { type StandaloneProcess, spawnStandalone } from './standalone-process';

// The burst suite. 1,000 concurrent requests of mixed kinds against the standalone process (`npm start`,
// a process of its own), with the gateway's in-flight limit (GATEWAY_MAX_IN_FLIGHT) set low so that load shedding
// must happen. The process stays up, every request gets an HTTP answer (its kind's success, or 503 with Retry-After
// and the contract's error body), and the next request after the burst succeeds. (Once, 400 concurrent feed reads
// ended the whole process.)

const BURST = Number(process.env.BURST_REQUESTS ?? 1000);
const MAX_IN_FLIGHT = 64;

let dataDir: string;
let standalone: StandaloneProcess;
const { ok, call, eventually, signIn } = gatewayClient(() => ({ url: standalone.url }) as Standalone);
const c = { user: '', premium: '', admin: '' };
let freePost = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-burst-'));
  standalone = await spawnStandalone({
    DATA_DIR: dataDir,
    ADMIN_EMAILS: 'admin@example.com',
    WEB_DIST: join(dataDir, 'no-web'),
    GATEWAY_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
    // The whole burst comes from one address: the bound per client stays out of the way of the one under test.
    GATEWAY_MAX_IN_FLIGHT_PER_CLIENT: String(BURST),
    RATE_LIMIT_PER_MINUTE: '100000000',
    INTAKE_EVENTS_PER_MINUTE: '100000000',
    AUTH_CODE_IP_LIMIT_PER_HOUR: '100000000',
  });
  const admin = await signIn('admin@example.com');
  c.admin = admin.token;
  c.user = (await signIn('user@example.com')).token;
  c.premium = (await signIn('premium@example.com')).token;
  await eventually(
    async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
    'content to know the admin',
  );
  await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
  const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id;
  freePost = (
    await ok(
      'POST',
      '/api/template/add',
      { heading: 'Free', body: 'Free body', subject: '', subjects: [], topic, status: true, type: 0 },
      admin.token,
    )
  ).template._id;
  await eventually(
    async () => (await call('GET', `/api/comment/comments/${freePost}?page=1&limit=5`)).status === 200,
    'engagement to know the post',
  );
}, 180_000);
afterAll(async () => {
  await standalone?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Kind {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  token?: string;
}

describe('a burst of 1,000 concurrent requests', () => {
  it('every request gets an answer (success or 503 with Retry-After), the process stays up and serves the next one', async () => {
    const kinds = (n: number): Kind => {
      const all: Kind[] = [
        {
          name: 'feed',
          method: 'POST',
          path: '/api/logs/getallpost?page=1&limit=5',
          body: { subscription: false },
        },
        { name: 'post', method: 'POST', path: `/api/template/${freePost}`, body: {}, token: c.user },
        { name: 'comments', method: 'GET', path: `/api/comment/comments/${freePost}?page=1&limit=5` },
        {
          name: 'sign-in code',
          method: 'POST',
          path: '/api/user/auth',
          body: { email: `burst-${n}@example.com` },
        },
        {
          name: 'like',
          method: 'POST',
          path: '/api/like/add',
          body: { templateid: freePost, status: n % 2 === 0 },
          token: c.user,
        },
        {
          name: 'comment',
          method: 'POST',
          path: '/api/comment/add',
          body: { templateid: freePost, message: `Burst ${n}` },
          token: c.premium,
        },
        {
          name: 'web event',
          method: 'POST',
          path: '/api/eventlogs',
          body: { eventType: 'page_visit', eventValue: '/' },
        },
        { name: 'admin users', method: 'GET', path: '/api/user/getallusers?page=1&limit=10', token: c.admin },
        { name: 'settings', method: 'GET', path: '/api/sitesettings/fetch' },
        { name: 'payment details', method: 'POST', path: '/api/payment/details', body: {}, token: c.user },
      ];
      return all[n % all.length] as Kind;
    };
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: BURST }, async (_, n) => {
        const kind = kinds(n);
        try {
          const res = await fetch(standalone.url + kind.path, {
            method: kind.method,
            headers: {
              ...(kind.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(kind.token ? { authorization: `Bearer ${kind.token}` } : {}),
            },
            ...(kind.body === undefined ? {} : { body: JSON.stringify(kind.body) }),
          });
          const text = await res.text();
          return { kind: kind.name, status: res.status, retryAfter: res.headers.get('retry-after'), text };
        } catch (err) {
          return { kind: kind.name, status: 0, retryAfter: null, text: String((err as Error).cause ?? err) };
        }
      }),
    );
    const ms = Date.now() - started;
    const counts: Record<string, number> = {};
    for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
    console.log(
      `burst: ${BURST} concurrent requests in ${ms} ms, in-flight limit ${MAX_IN_FLIGHT}; by status ${JSON.stringify(counts)}`,
    );

    const unanswered = answers.filter((a) => a.status === 0);
    expect(unanswered.map((a) => `${a.kind}: ${a.text}`).slice(0, 5)).toEqual([]);
    const shed = answers.filter((a) => a.status === 503);
    for (const a of shed) {
      expect(a.retryAfter, a.kind).toMatch(/^\d+$/);
      expect(JSON.parse(a.text), a.kind).toEqual({ status: false, message: expect.any(String) });
    }
    const wrong = answers.filter((a) => a.status !== 200 && a.status !== 503);
    expect(wrong.map((a) => `${a.kind}: ${a.status} ${a.text.slice(0, 120)}`).slice(0, 10)).toEqual([]);
    // The excess was shed, and the rest was served.
    expect(shed.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(MAX_IN_FLIGHT);

    // Still up, and the next request succeeds.
    expect(standalone.alive()).toBe(true);
    expect((await fetch(`${standalone.url}/healthz`)).status).toBe(200);
    const next = await call('POST', '/api/logs/getallpost?page=1&limit=5', {
      subscription: false,
    });
    expect(next.status).toBe(200);
    expect(next.body.templates.length).toBeGreaterThan(0);
    expect(standalone.stderr()).not.toMatch(/uncaught|ERR_HTTP_HEADERS_SENT/i);
  }, 120_000);
});
