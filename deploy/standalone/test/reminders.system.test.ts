import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecret, type OutboxMessage } from '@nudge/platform';
import { internalPost, jsonCall, until } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { testStandaloneEnv } from './helpers';

// The daily reminders in the standalone process, on a clock the test drives: readers in three zones (+05:30,
// +05:45, -05:00) get exactly one e-mail each at their local time; every link in it is followed and checked.

const PUBLIC_URL = 'http://nudge.test';
const DAY = '2026-11-24';
let now = new Date(`${DAY}T00:00:00Z`);
let dataDir: string;
let app: Standalone;

const call = (method: string, path: string, body?: unknown, token?: string) =>
  jsonCall(app.url, method, path, body, token);
const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await call(method, path, body, token);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
type Captured = Omit<OutboxMessage, 'createdAt'>;
const outbox = async (): Promise<Captured[]> => (await ok('GET', '/api/dev/outbox')).messages;

async function signIn(email: string, timeZone: string) {
  await ok('POST', '/api/user/auth', { email });
  const code = (await outbox()).find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
  const { token, user } = await ok('POST', '/api/user/verify', { email, otp: code, timeZone });
  return { token: token as string, id: user._id as string, email };
}

/** A followed link: where our site sends the browser (the origin of PUBLIC_URL swapped for the test's gateway). */
async function follow(url: string) {
  const res = await fetch(url.replace(PUBLIC_URL, app.url), { redirect: 'manual' });
  return {
    status: res.status,
    location: res.headers.get('location') ?? '',
    type: res.headers.get('content-type'),
  };
}
const kindOf = (url: string) => {
  const token = url.split('/api/reminder/go/')[1] ?? '';
  const payload = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString());
  // A token of the current format lists its claims, the link kind seventh; an older one names them.
  return (Array.isArray(payload) ? payload[6] : payload.link) as string;
};
const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'));
const mailsTo = async (email: string) =>
  (await outbox()).filter((m) => m.to === email && m.channel === 'email' && m.idempotencyKey);

const readers = {
  kolkata: { email: 'asha@example.com', zone: 'Asia/Kolkata', time: '08:00', utc: `${DAY}T02:30:00Z` },
  kathmandu: { email: 'bina@example.com', zone: 'Asia/Kathmandu', time: '09:45', utc: `${DAY}T04:00:00Z` },
  newYork: { email: 'cole@example.com', zone: 'America/New_York', time: '07:15', utc: `${DAY}T12:15:00Z` },
};
const ids: Record<string, string> = {};
let postIds: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-reminders-'));
  app = await startStandalone(testStandaloneEnv(dataDir, { PUBLIC_URL }), { clock: () => now });
  const admin = await signIn('admin@example.com', 'UTC');
  await until(
    async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
    'content to know the admin',
  );
  await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
  const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id;
  for (const n of [1, 2, 3, 4]) {
    const { template } = await ok(
      'POST',
      '/api/template/add',
      {
        heading: `Breathe ${n}`,
        body: `<p>Slow breath number ${n}.</p><p>Then another.</p>`,
        subjects: [
          { title: `Active line ${n}`, status: true },
          { title: `Paused line ${n}`, status: false },
        ],
        topic,
        status: true,
        type: 0,
      },
      admin.token,
    );
    postIds.push(template._id);
  }
  postIds = postIds.sort();
  await ok('POST', '/api/checkin/add', { body: 'How rested do you feel?', order: 1 }, admin.token);

  for (const [key, r] of Object.entries(readers)) {
    const me = await signIn(r.email, r.zone);
    ids[key] = me.id;
    await ok('POST', '/api/user/update', {
      email: r.email,
      token: me.token,
      info: { email: r.email, firstname: key, notiinfo: { time: r.time, active: true }, enableEmail: true },
    });
    if (key === 'newYork') {
      await ok('POST', '/api/user/otpTransaction', {
        email: r.email,
        token: me.token,
        phone: '9876543210',
        stage: 1,
      });
      const code = (await outbox()).find((m) => m.channel === 'whatsapp')?.text.match(/\b(\d{6})\b/)?.[1];
      await ok('POST', '/api/user/otpTransaction', {
        email: r.email,
        token: me.token,
        phone: '9876543210',
        stage: 2,
        otp: code,
      });
    }
  }
  // Asked for a code and never entered it: an account with reminders on (08:00 UTC), but not proven.
  await ok('POST', '/api/user/auth', { email: 'stranger@example.com' });
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('daily reminders in the standalone process', () => {
  it('sends each reader one e-mail at their local time, in three zones; nobody twice; not to unproven addresses', async () => {
    now = new Date(new Date(readers.kolkata.utc).getTime() + 10_000);
    await app.reminders.runDue();
    expect(await mailsTo(readers.kolkata.email)).toHaveLength(1);
    expect(await mailsTo(readers.kathmandu.email)).toHaveLength(0);

    now = new Date(readers.kathmandu.utc);
    const reports = await app.reminders.runDue();
    // 02:45 .. 04:00 caught up in order.
    expect(reports.map((r) => r.slot.slice(11, 16))).toEqual([
      '02:45',
      '03:00',
      '03:15',
      '03:30',
      '03:45',
      '04:00',
    ]);
    expect(await mailsTo(readers.kathmandu.email)).toHaveLength(1);
    expect(await mailsTo(readers.newYork.email)).toHaveLength(0);

    now = new Date(`${DAY}T08:05:00Z`);
    await app.reminders.runDue();
    expect(await mailsTo('stranger@example.com')).toHaveLength(0);

    now = new Date(readers.newYork.utc);
    await app.reminders.runDue();
    await app.reminders.runDue(); // a repeat run of the same slot sends nothing more
    for (const r of Object.values(readers)) expect(await mailsTo(r.email)).toHaveLength(1);
    const wa = (await outbox()).filter((m) => m.channel === 'whatsapp' && !/\b\d{6}\b/.test(m.text));
    expect(wa).toHaveLength(1);
    expect(wa[0]?.to).toBe('+919876543210'); // stored as E.164 (India the default country)
    expect(wa[0]?.text).toMatch(/Breathe \d/);
    expect(wa[0]?.text).toContain(`${PUBLIC_URL}/api/reminder/go/`);
    // The heading once, one link, and how to stop the messages.
    expect(wa[0]?.text.match(/Breathe \d/g)).toHaveLength(1);
    expect(wa[0]?.text.match(/https?:\/\//g)).toHaveLength(1);
    expect(wa[0]?.text).toContain('To stop these messages, turn WhatsApp reminders off in your settings.');
    // /metrics counts what went out, per channel.
    const metrics = await (await fetch(app.metricsUrl)).text();
    const sent = (channel: string) =>
      Number(
        new RegExp(
          `^nudge_reminders_sent_total\\{service="workflows",channel="${channel}"\\} (\\d+)$`,
          'm',
        ).exec(metrics)?.[1],
      );
    // Every reminder e-mail in the outbox (the three readers' and the admin's), each counted once.
    const reminderMails = (await outbox()).filter((m) => m.channel === 'email' && m.idempotencyKey);
    expect(reminderMails.length).toBeGreaterThanOrEqual(Object.values(readers).length);
    expect(sent('email')).toBe(reminderMails.length);
    expect(sent('whatsapp')).toBe(1);
  });

  it('sends an Active subject line with the post, a plain-text part, and RFC 8058 headers', async () => {
    const [mail] = await mailsTo(readers.kolkata.email);
    expect(mail?.subject).toMatch(/^Active line \d$/);
    expect(mail?.html).toContain('<html');
    expect(mail?.html).toMatch(/Breathe \d/);
    expect(mail?.text).toMatch(/Slow breath number \d/);
    expect(mail?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail?.headers?.['List-Unsubscribe']).toMatch(
      /^<http:\/\/nudge\.test\/api\/user\/unsubscribe\/.+>$/,
    );
    expect(mail?.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it('continue-reading and like links record the click and sign the reader in on the post', async () => {
    const [mail] = await mailsTo(readers.kolkata.email);
    const links = hrefs(mail?.html ?? '');
    const cont = links.find((l) => l.includes('/api/reminder/go/') && kindOf(l) === 'continue_reading');
    const like = links.find((l) => l.includes('/api/reminder/go/') && kindOf(l) === 'like');
    const went = await follow(cont ?? '');
    expect(went.status).toBe(302);
    const target = new URL(went.location);
    expect(target.origin).toBe(PUBLIC_URL);
    expect(postIds).toContain(target.pathname.split('/')[2]);
    const uid = target.searchParams.get('uid') ?? '';
    const session = await ok('POST', `/api/user/signinbytoken/${encodeURIComponent(uid)}`, {});
    expect(session.user.email).toBe(readers.kolkata.email);
    const liked = new URL((await follow(like ?? '')).location);
    expect(liked.searchParams.get('a')).toBe('like');
    expect(liked.pathname).toBe(target.pathname);
    // The web app likes the post on arrival with a=like; the session the link gives can do so.
    const likeRes = await ok(
      'POST',
      '/api/like/add',
      { templateid: target.pathname.split('/')[2], status: true },
      session.token,
    );
    expect(likeRes.status).toBe(true);

    const sendId = mail?.idempotencyKey ?? '';
    const recorded = await internal('engagement', '/internal/reminders/recorded', { sendIds: [sendId] });
    expect(recorded.clicked).toEqual([sendId]);
  });

  it('the open image records one open however often it loads', async () => {
    const [mail] = await mailsTo(readers.kathmandu.email);
    const pixel = (mail?.html ?? '').match(/src="([^"]*\/api\/reminder\/open\/[^"]+)"/)?.[1] ?? '';
    const sendId = mail?.idempotencyKey ?? '';
    expect(
      (await internal('engagement', '/internal/reminders/recorded', { sendIds: [sendId] })).opened,
    ).toEqual([]);
    for (let i = 0; i < 3; i++) {
      const res = await follow(pixel);
      expect(res.status).toBe(200);
      expect(res.type).toBe('image/gif');
    }
    expect(
      (await internal('engagement', '/internal/reminders/recorded', { sendIds: [sendId] })).opened,
    ).toEqual([sendId]);
    expect(
      (await follow(`${PUBLIC_URL}/api/reminder/open/${pixel.split('/open/')[1]?.slice(0, -3)}xyz`)).status,
    ).toBe(400);
  });

  it('the check-in answer links record the answer and sign the reader in', async () => {
    const [mail] = await mailsTo(readers.kathmandu.email);
    expect(mail?.html).toContain('How rested do you feel?');
    const answers = hrefs(mail?.html ?? '').filter(
      (l) => l.includes('/api/reminder/go/') && kindOf(l) === 'checkin',
    );
    expect(answers).toHaveLength(5);
    const target = new URL((await follow(answers[3] ?? '')).location);
    expect(target.pathname).toBe('/checkin');
    expect(target.searchParams.get('a')).toBe('4');
    const answered = await ok('POST', `/api/checkin${target.search}`, {});
    expect(answered.user.email).toBe(readers.kathmandu.email);
    const progress = await ok('POST', '/api/checkin/progress', {}, answered.token);
    expect(progress.answers).toBe(1);
  });

  it('the unsubscribe link opens the reader’s unsubscribe page, and the one-click POST turns reminders off', async () => {
    const [mail] = await mailsTo(readers.newYork.email);
    const unsub = hrefs(mail?.html ?? '').find(
      (l) => l.includes('/api/reminder/go/') && kindOf(l) === 'unsubscribe',
    );
    const page = new URL((await follow(unsub ?? '')).location);
    expect(page.pathname).toMatch(/^\/unsubscribe\//);
    const token = decodeURIComponent(page.pathname.split('/')[2] ?? '');
    const details = await ok('GET', `/api/user/getnotificationdetails/${encodeURIComponent(token)}`);
    expect(details.user).toEqual({ email: readers.newYork.email, notiinfo: { time: '07:15', active: true } });
    const oneClick = (mail?.headers?.['List-Unsubscribe'] ?? '').slice(1, -1).replace(PUBLIC_URL, app.url);
    const res = await fetch(oneClick, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const after = await ok('GET', `/api/user/getnotificationdetails/${encodeURIComponent(token)}`);
    expect(after.user.notiinfo.active).toBe(false);
    // The next day at 07:15 New York: nothing for them (reminders are off).
    now = new Date('2026-11-25T12:15:00Z');
    const reports = await app.reminders.runDue();
    expect(await mailsTo(readers.newYork.email)).toHaveLength(1);
    // The scheduler was not run for a day: Kolkata's 02:30 UTC slot was 9h45 late, so it was skipped and counted.
    expect(await mailsTo(readers.kolkata.email)).toHaveLength(1);
    expect(reports.find((r) => r.slot === '2026-11-25T02:30:00.000Z')?.skippedLate).toBe(1);
    expect(reports.filter((r) => r.sent > 0)).toEqual([]);
  });
});

async function internal(service: 'engagement' | 'auth' | 'content', path: string, body: unknown) {
  const credential = await loadOrCreateSecret(dataDir, 'internal-service-token');
  return (await internalPost(app.serviceUrls[service], path, body, credential)).body;
}
