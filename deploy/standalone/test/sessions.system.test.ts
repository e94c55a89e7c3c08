import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

// In the standalone process: a logged-out token is refused by every service (content, engagement, billing,
// reporting) within a second, through auth.SessionsRevoked on the bus; auth refuses it at once. The e-mailed links
// that sign in (sign-in links, check-in answers) end with the sessions.
const ENDED = 'Your session has ended; please sign in again';

let dataDir: string;
let app: Standalone;
const { call, ok, eventually, signIn } = gatewayClient(() => app);

/** One signed-in call per service other than auth (reporting's are admin routes). */
const calls = (token: string): Array<[string, () => ReturnType<typeof call>]> => [
  ['content', () => call('POST', '/api/logs/gettodaypost', { token })],
  ['engagement', () => call('POST', '/api/checkin/progress', { token })],
  ['billing', () => call('POST', '/api/payment/details', { token })],
  ['reporting', () => call('GET', '/api/report?page=1&limit=5', undefined, token)],
];

let admin: { token: string; id: string };
let other: { token: string; id: string };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-sessions-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAILS: 'admin@example.com,other-admin@example.com',
    WEB_DIST: join(dataDir, 'no-web'),
  });
  admin = await signIn('admin@example.com');
  other = await signIn('other-admin@example.com');
  // Every service knows both admins (their events reached each copy) before the logout.
  for (const who of [admin, other]) {
    for (const [service, send] of calls(who.token)) {
      await eventually(async () => (await send()).status === 200, `${service} to know the admin`);
    }
  }
});
/** A service's /internal route, with the process's internal credential (what the reminder workflow calls). */
async function internal(service: 'auth' | 'engagement', path: string, body: unknown) {
  const credential = (await readFile(join(dataDir, 'keys', 'internal-service-token.secret'), 'utf8')).trim();
  const res = await fetch(`${app.serviceUrls[service]}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': credential },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
}

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('logout ends the session in every service', () => {
  it('a logged-out token is refused by auth at once and by content, engagement, billing and reporting within a second', async () => {
    await ok('POST', '/api/user/logout', { token: admin.token });
    const loggedOutAt = Date.now();
    const isauth = await call('POST', '/api/user/isauth', { token: admin.token });
    expect(isauth.status).toBe(401);
    expect(isauth.body.message).toBe(ENDED);

    for (const [service, send] of calls(admin.token)) {
      await eventually(
        async () => (await send()).status === 401,
        `${service} to refuse the ended session`,
        1_000,
      );
      const refused = await send();
      expect(refused.body, service).toEqual({ status: false, message: ENDED });
    }
    expect(Date.now() - loggedOutAt).toBeLessThan(1_000);
    // The public feed still serves a browser holding the ended token, as a visitor.
    const feed = await call(
      'POST',
      '/api/logs/getallpost?page=1&limit=5',
      { subscription: false },
      admin.token,
    );
    expect(feed.status).toBe(200);

    // The other admin's session is untouched everywhere.
    for (const [service, send] of calls(other.token)) expect((await send()).status, service).toBe(200);
  });

  it('an admin ends another user’s sessions: refused everywhere within a second; a new sign-in works', async () => {
    const reader = await signIn('reader@example.com');
    const [content, engagement, billing] = calls(reader.token);
    for (const [service, send] of [content, engagement, billing] as Array<
      [string, () => ReturnType<typeof call>]
    >) {
      await eventually(async () => (await send()).status === 200, `${service} to know the reader`);
    }
    await ok('POST', `/api/user/revokesessions/${reader.id}`, {}, other.token);
    const revokedAt = Date.now();
    for (const [service, send] of [content, engagement, billing] as Array<
      [string, () => ReturnType<typeof call>]
    >) {
      await eventually(
        async () => (await send()).status === 401,
        `${service} to refuse the ended session`,
        1_000,
      );
    }
    expect(Date.now() - revokedAt).toBeLessThan(1_000);

    const again = await signIn('reader@example.com', false);
    expect((await call('POST', '/api/payment/details', { token: again.token })).status).toBe(200);
  });
});

describe('e-mailed links end with the sessions', () => {
  const checkinLink = async (userId: string) => {
    const issued = await internal('engagement', '/internal/checkin/issue', { userId });
    return new URL(issued.links[0].url).searchParams.get('qlid') as string;
  };

  it('check-in answers sent at once all sign the reader in (never a 503), one answer recorded', async () => {
    await ok(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'normal', order: 0 },
      other.token,
    );
    const reader = await signIn('checks-in@example.com');
    const qlid = await checkinLink(reader.id);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/api/checkin?qlid=${qlid}&a=4`)),
    );
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).not.toMatch(/stream|version/i);
    }
    expect(replies.filter((r) => !r.body.alreadyAnswered)).toHaveLength(1);
    for (const reply of replies)
      expect((await call('POST', '/api/user/isauth', { token: reply.body.token })).status).toBe(200);
    await eventually(
      async () => (await call('POST', '/api/checkin/progress', { token: reader.token })).body?.answers === 1,
      'the answer in the reader’s wellbeing score',
    );
  });

  it('after GET /auth/logout, the sign-in and check-in links sent before it sign no one in and record nothing', async () => {
    const reader = await signIn('leaves@example.com');
    const uid = (await internal('auth', '/internal/tokens/signin-link', { userId: reader.id }))
      .token as string;
    const qlid = await checkinLink(reader.id);
    await new Promise((r) => setTimeout(r, 2));

    const out = await fetch(`${app.url}/auth/logout`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(out.status).toBe(200);
    expect((await call('POST', '/api/user/isauth', { token: reader.token })).status).toBe(401);

    const link = await call('POST', `/api/user/signinbytoken/${encodeURIComponent(uid)}`, {});
    expect(link.status).toBe(401);
    expect(link.body.message).toBe(
      'This sign-in link no longer works because you were signed out; please sign in with your email',
    );
    const checkin = await call('POST', `/api/checkin?qlid=${qlid}&a=5`);
    expect(checkin.status).toBe(410);
    expect(checkin.body).toEqual({
      status: false,
      message: 'This check-in link no longer works because you were signed out. Please sign in again.',
    });
    const again = await signIn('leaves@example.com', false);
    expect((await call('POST', '/api/checkin/progress', { token: again.token })).body.answers).toBe(0);
  });
});
