import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

// Issue 14 in the standalone process: a logged-out token is refused by every service (content, engagement, billing,
// reporting) within a second, through auth.SessionsRevoked on the bus; auth refuses it at once.
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
