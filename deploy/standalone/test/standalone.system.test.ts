import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonCall } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';

let dataDir: string;
let app: Standalone;

const env = () => ({
  DATA_DIR: dataDir,
  PORT: '0',
  LOG_LEVEL: 'silent',
  ADMIN_EMAILS: 'admin@example.com',
  WEB_DIST: join(dataDir, 'no-web'),
});

const call = (method: string, path: string, body?: unknown, token?: string) =>
  jsonCall(app.url, method, path, body, token);

async function codeFor(email: string): Promise<string> {
  const outbox = await call('GET', '/api/dev/outbox');
  const message = outbox.body.messages.find((m: { to: string }) => m.to === email);
  const code = message?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code for ${email} in the dev outbox`);
  return code;
}

async function signIn(email: string) {
  expect((await call('POST', '/api/user/auth', { email })).body).toEqual({
    status: true,
    message: 'OTP sent to your email',
  });
  const verified = await call('POST', '/api/user/verify', { email, otp: await codeFor(email) });
  expect(verified.status).toBe(200);
  return verified.body as { status: true; user: { _id: string; email: string; role: string }; token: string };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-standalone-'));
  app = await startStandalone(env());
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the standalone process, as a new user meets it', () => {
  let reader: Awaited<ReturnType<typeof signIn>>;

  it('a new e-mail gets a code in the dev outbox; verify returns user and token; isauth returns the user', async () => {
    reader = await signIn('reader@example.com');
    expect(reader.user).toMatchObject({ email: 'reader@example.com', verified: false, role: 'user' });
    const outbox = await call('GET', '/api/dev/outbox');
    expect(outbox.body.messages[0]).toMatchObject({
      channel: 'email',
      to: 'reader@example.com',
      subject: expect.stringContaining('sign-in code'),
    });
    const me = await call('POST', '/api/user/isauth', { token: reader.token });
    expect(me.body).toMatchObject({ status: true, user: { _id: reader.user._id } });
  });

  it('update saves the profile', async () => {
    const res = await call('POST', '/api/user/update', {
      token: reader.token,
      email: 'reader@example.com',
      info: {
        ageConfirmed: true,
        firstname: 'Ravi',
        lastname: 'Iyer',
        notiinfo: { time: '06:30', active: true },
        enableEmail: true,
        topics: [],
      },
    });
    expect(res.body).toMatchObject({
      status: true,
      user: { firstname: 'Ravi', lastname: 'Iyer', notiinfo: { time: '06:30' }, verified: true },
    });
  });

  it('a wrong code gets status false', async () => {
    await call('POST', '/api/user/auth', { email: 'wrong@example.com' });
    const code = await codeFor('wrong@example.com');
    const res = await call('POST', '/api/user/verify', {
      email: 'wrong@example.com',
      otp: code === '999999' ? '000000' : '999999',
    });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
  });

  it('admin routes: 401 without a token, 403 with a user token, 200 with an admin token', async () => {
    const admin = await signIn('admin@example.com');
    expect(admin.user.role).toBe('admin');
    expect((await call('GET', '/api/user/getallusers?page=1&limit=10')).status).toBe(401);
    expect((await call('GET', '/api/user/getallusers?page=1&limit=10', undefined, reader.token)).status).toBe(
      403,
    );
    const list = await call('GET', '/api/user/getallusers?page=1&limit=10', undefined, admin.token);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ status: true, total: 3 });
  });

  it('bad input is refused with a clear message through the gateway', async () => {
    const res = await call('POST', '/api/user/auth', { email: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: 'Please enter a valid email' });
    const big = await call('POST', '/api/user/auth', { email: `${'a'.repeat(200_000)}@example.com` });
    expect(big.status).toBe(413);
    expect(big.body.status).toBe(false);
  });

  it('reporting answers its routes (no token: 401); request ids come back', async () => {
    const res = await call('GET', '/api/report?page=1&limit=10');
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(false);
    expect(res.headers.get('x-request-id')).toMatch(/\S+/);
  });

  it('after a restart the users, their sessions and the admin are still there', async () => {
    const before = (
      await call('GET', '/api/user/getallusers', undefined, (await signIn('admin@example.com')).token)
    ).body;
    await app.close();
    app = await startStandalone(env());
    const me = await call('POST', '/api/user/isauth', { token: reader.token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'reader@example.com', firstname: 'Ravi' });
    const admin = await signIn('admin@example.com');
    const after = (await call('GET', '/api/user/getallusers', undefined, admin.token)).body;
    expect(after.total).toBe(before.total);
    expect(after.data.map((u: { email: string }) => u.email).sort()).toEqual(
      before.data.map((u: { email: string }) => u.email).sort(),
    );
  });
});
