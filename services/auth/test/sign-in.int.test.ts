import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

describe('sign-in with an e-mailed code', () => {
  it('sends a 6-digit code to a new address and registers the user unverified', async () => {
    const res = await auth.post('/api/user/auth', { email: '  New.Reader@Example.com ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, message: 'OTP sent to your email' });
    const [mail] = await auth.outbox.list();
    expect(mail).toMatchObject({ channel: 'email', to: 'new.reader@example.com' });
    expect(mail?.text).toMatch(/\b\d{6}\b/);
    expect(mail?.text).toContain('10 minutes');
  });

  it('verify returns the user (profile not yet completed) and a token that isauth accepts', async () => {
    const code = await auth.lastCode('new.reader@example.com');
    const res = await auth.post('/api/user/verify', {
      email: 'new.reader@example.com',
      otp: code,
      timeZone: 'Asia/Kolkata',
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.user).toMatchObject({
      email: 'new.reader@example.com',
      verified: false,
      role: 'user',
      timeZone: 'Asia/Kolkata',
    });
    expect(res.body.user.last_app_login).toEqual(expect.any(String));
    const me = await auth.post('/api/user/isauth', { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      status: true,
      user: { _id: res.body.user._id, email: 'new.reader@example.com' },
    });
    expect(me.body.token).toBeUndefined();
  });

  it('a code works once', async () => {
    await auth.post('/api/user/auth', { email: 'once@example.com' });
    const code = await auth.lastCode('once@example.com');
    expect((await auth.post('/api/user/verify', { email: 'once@example.com', otp: code })).status).toBe(200);
    const again = await auth.post('/api/user/verify', { email: 'once@example.com', otp: code });
    expect(again.status).toBe(400);
    expect(again.body.status).toBe(false);
  });

  it('a wrong code gets status false, and the fifth wrong code ends the code', async () => {
    await auth.post('/api/user/auth', { email: 'guess@example.com' });
    const code = await auth.lastCode('guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await auth.post('/api/user/verify', { email: 'guess@example.com', otp: wrong });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: false, message: 'Invalid OTP! Please enter Correct OTP' });
    }
    const right = await auth.post('/api/user/verify', { email: 'guess@example.com', otp: code });
    expect(right.status).toBe(400);
    expect(right.body.status).toBe(false);
  });

  it('a code expires after 10 minutes', async () => {
    let now = new Date('2026-01-01T10:00:00Z');
    const timed = await startAuth({ clock: () => now });
    try {
      await timed.post('/api/user/auth', { email: 'late@example.com' });
      const code = await timed.lastCode('late@example.com');
      now = new Date('2026-01-01T10:10:01Z');
      const res = await timed.post('/api/user/verify', { email: 'late@example.com', otp: code });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('This code has expired; please ask for a new one');
    } finally {
      await timed.close();
    }
  });

  it('limits codes per e-mail address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await auth.post('/api/user/auth', { email: 'spam@example.com' })).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });

  it('limits codes per IP address', async () => {
    const strict = await startAuth({ codeIpLimitPerHour: 2 });
    try {
      expect((await strict.post('/api/user/auth', { email: 'a1@example.com' })).status).toBe(200);
      expect((await strict.post('/api/user/auth', { email: 'a2@example.com' })).status).toBe(200);
      const third = await strict.post('/api/user/auth', { email: 'a3@example.com' });
      expect(third.status).toBe(429);
      expect(third.body.status).toBe(false);
    } finally {
      await strict.close();
    }
  });

  it('behind the gateway (TRUSTED_PROXIES), counts per client address the gateway forwards', async () => {
    // The test's own address plays the gateway pod; X-Forwarded-For is what the gateway sets (it overwrites the
    // client's).
    const strict = await startAuth({ codeIpLimitPerHour: 2, trustedProxies: ['127.0.0.1/32', '10.0.0.0/8'] });
    const from = async (client: string, email: string) =>
      (
        await fetch(`${strict.url}/api/user/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ email }),
        })
      ).status;
    try {
      expect(await from('203.0.113.7', 'b1@example.com')).toBe(200);
      expect(await from('203.0.113.7', 'b2@example.com')).toBe(200);
      // Another reader behind the same gateway pod is not held back by the first one's limit.
      expect(await from('198.51.100.9', 'b3@example.com')).toBe(200);
      expect(await from('203.0.113.7', 'b4@example.com')).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
    // Only the gateway's range is trusted; a caller on another address (here loopback) cannot pick its own address.
    const strict = await startAuth({ codeIpLimitPerHour: 2, trustedProxies: ['10.0.0.0/8'] });
    const claim = async (client: string, email: string) =>
      (
        await fetch(`${strict.url}/api/user/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
          body: JSON.stringify({ email }),
        })
      ).status;
    try {
      expect(await claim('203.0.113.1', 'c1@example.com')).toBe(200);
      expect(await claim('203.0.113.2', 'c2@example.com')).toBe(200);
      expect(await claim('203.0.113.3', 'c3@example.com')).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('stores codes hashed, never in clear', async () => {
    await auth.post('/api/user/auth', { email: 'hash@example.com' });
    const code = await auth.lastCode('hash@example.com');
    const stored = await auth.store.collection('one_time_codes').find({});
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('an e-mail listed in ADMIN_EMAILS becomes admin on sign-in', async () => {
    const { user } = await auth.signIn('boss@example.com');
    expect(user.role).toBe('admin');
  });

  it('isauth refuses a missing, forged or garbage token', async () => {
    expect((await auth.post('/api/user/isauth', {})).status).toBe(401);
    expect((await auth.post('/api/user/isauth', { token: 'abc.def.ghi' })).status).toBe(401);
    const { token } = await auth.signIn('forge@example.com');
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, role: 'admin' })).toString('base64url')}.${s}`;
    const res = await auth.post('/api/user/isauth', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(false);
  });
});

describe('request ids', () => {
  it('the request id a call brings is written into the meta of the events it appends', async () => {
    const res = await fetch(`${auth.url}/api/user/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-trace-42' },
      body: JSON.stringify({ email: 'traced@example.com' }),
    });
    expect(res.headers.get('x-request-id')).toBe('req-trace-42');
    const user = await auth.store
      .collection<{ _id: string; email: string }>('users')
      .findOne({ email: 'traced@example.com' });
    const [registered] = await auth.events.readStream(`user-${user?._id}`);
    expect(registered).toMatchObject({ type: 'auth.UserRegistered.v1', meta: { requestId: 'req-trace-42' } });
  });
});
