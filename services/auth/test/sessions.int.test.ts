import { createTokenIssuer, loadOrCreateSigningKeys } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

// A session ends on the server (logout, or an admin ends a user's sessions), and a role downgrade applies
// to old tokens at once.
let auth: AuthHarness;
let admin: string;
let adminId: string;
beforeAll(async () => {
  auth = await startAuth();
  const signed = await auth.signIn('boss@example.com');
  admin = signed.token;
  adminId = signed.user._id;
});
afterAll(() => auth.close());

const ENDED = 'Your session has ended; please sign in again';

describe('logout (POST /api/user/logout)', () => {
  it('ends the session: the same token is then refused by isauth and every signed-in route', async () => {
    const { token } = await auth.signIn('leaver@example.com');
    expect((await auth.post('/api/user/isauth', { token })).status).toBe(200);

    const out = await auth.post('/api/user/logout', { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ status: true, message: 'Signed out' });

    const isauth = await auth.post('/api/user/isauth', { token });
    expect(isauth.status).toBe(401);
    expect(isauth.body).toEqual({ status: false, message: ENDED });
    expect(isauth.body.token).toBeUndefined();
    const update = await auth.post('/api/user/updatename', { token, firstname: 'A', lastname: 'B' });
    expect(update.status).toBe(401);
    expect(update.body.message).toBe(ENDED);
    // A second logout with the ended token is refused too (nothing to end).
    expect((await auth.post('/api/user/logout', { token })).status).toBe(401);
  });

  it('ends every session of that user, and leaves other users signed in', async () => {
    const phone = await auth.signIn('two-devices@example.com');
    const laptop = await auth.signIn('two-devices@example.com');
    const other = await auth.signIn('bystander@example.com');
    expect((await auth.post('/api/user/logout', {}, phone.token)).status).toBe(200);
    expect((await auth.post('/api/user/isauth', { token: laptop.token })).status).toBe(401);
    const bystander = await auth.post('/api/user/isauth', { token: other.token });
    expect(bystander.status).toBe(200);
    expect(bystander.body.user.email).toBe('bystander@example.com');
  });

  it('a sign-in after the logout gives a working session', async () => {
    const first = await auth.signIn('back-again@example.com');
    expect((await auth.post('/api/user/logout', { token: first.token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2));
    const again = await auth.signIn('back-again@example.com');
    expect((await auth.post('/api/user/isauth', { token: again.token })).status).toBe(200);
    expect((await auth.post('/api/user/isauth', { token: first.token })).status).toBe(401);
  });

  it('refuses a token issued in the same millisecond as the logout (the edge goes to refusing)', async () => {
    const { user, token } = await auth.signIn('same-ms@example.com');
    expect((await auth.post('/api/user/logout', { token })).status).toBe(200);
    const state = await auth.store
      .collection<{ _id: string; sessionsRevokedBefore: string }>('users')
      .findOne({
        _id: user._id,
      });
    const before = new Date(state?.sessionsRevokedBefore ?? '');
    const keys = await loadOrCreateSigningKeys(auth.dataDir);
    const issuer = createTokenIssuer(keys.privateKey, 1);
    const same = await issuer.signSession({ userId: user._id, email: user.email, role: user.role }, before);
    const after = await issuer.signSession(
      { userId: user._id, email: user.email, role: user.role },
      new Date(before.getTime() + 1),
    );
    expect((await auth.post('/api/user/isauth', { token: same })).status).toBe(401);
    expect((await auth.post('/api/user/isauth', { token: after })).status).toBe(200);
  });

  it('without a token: 401', async () => {
    const res = await auth.post('/api/user/logout', {});
    expect(res.status).toBe(401);
    expect(res.body.status).toBe(false);
  });

  it('a bad body is a 400 and ends nothing', async () => {
    const { token } = await auth.signIn('bad-body@example.com');
    const res = await auth.post('/api/user/logout', { token: 42 }, token);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect((await auth.post('/api/user/isauth', { token })).status).toBe(200);
  });
});

describe('sign out by the contract’s own call (GET /auth/logout)', () => {
  const logout = (token?: string) =>
    fetch(`${auth.url}/auth/logout`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  it('ends the session of the bearer token everywhere, as POST /api/user/logout does', async () => {
    const phone = await auth.signIn('get-logout@example.com');
    const laptop = await auth.signIn('get-logout@example.com');
    const res = await logout(phone.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true, message: 'Signed out' });
    for (const token of [phone.token, laptop.token]) {
      const isauth = await auth.post('/api/user/isauth', { token });
      expect(isauth.status).toBe(401);
      expect(isauth.body.message).toBe(ENDED);
    }
  });

  it('without a token, or with an ended one, ends nothing (an old tab never ends a newer session)', async () => {
    const { token: old } = await auth.signIn('old-tab@example.com');
    expect((await logout(old)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2));
    const { token: current } = await auth.signIn('old-tab@example.com');
    expect((await logout(old)).status).toBe(200);
    expect((await logout()).status).toBe(200);
    expect((await auth.post('/api/user/isauth', { token: current })).status).toBe(200);
  });
});

describe('admin ends a user’s sessions (POST /api/user/revokesessions/:id)', () => {
  it('ends every session of that user; the admin and other users stay signed in', async () => {
    const target = await auth.signIn('revoked@example.com');
    const other = await auth.signIn('untouched@example.com');
    const res = await auth.post(`/api/user/revokesessions/${target.user._id}`, {}, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, message: 'Every session of this user has ended' });
    const refused = await auth.post('/api/user/isauth', { token: target.token });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(ENDED);
    expect((await auth.post('/api/user/isauth', { token: other.token })).status).toBe(200);
    expect((await auth.post('/api/user/isauth', { token: admin })).status).toBe(200);
  });

  it('is refused to a user who is not an admin (403) and without a token (401), and ends nothing', async () => {
    const plain = await auth.signIn('plain-revoker@example.com');
    const victim = await auth.signIn('victim@example.com');
    const forbidden = await auth.post(`/api/user/revokesessions/${victim.user._id}`, {}, plain.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.status).toBe(false);
    expect((await auth.post(`/api/user/revokesessions/${victim.user._id}`, {})).status).toBe(401);
    expect((await auth.post('/api/user/isauth', { token: victim.token })).status).toBe(200);
  });

  it('a malformed id is a 400 and an unknown id a 404', async () => {
    const bad = await auth.post('/api/user/revokesessions/not-an-id', {}, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.status).toBe(false);
    const unknown = await auth.post('/api/user/revokesessions/aaaaaaaaaaaaaaaaaaaaaaaa', {}, admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: false, message: 'User not found' });
  });

  it('an admin may end their own sessions (it is their own sign-out everywhere)', async () => {
    const self = await auth.signIn('self-revoker@example.com');
    // Make them an admin with the boss's token, then sign in again so the token carries the role.
    await auth.post(`/api/user/update/${self.user._id}`, { info: { role: 'admin' } }, admin);
    await new Promise((r) => setTimeout(r, 2));
    const { token } = await auth.signIn('self-revoker@example.com');
    const res = await auth.post(`/api/user/revokesessions/${self.user._id}`, {}, token);
    expect(res.status).toBe(200);
    expect((await auth.post('/api/user/isauth', { token })).status).toBe(401);
    expect(adminId).not.toBe(self.user._id);
  });
});

describe('role downgrade on old tokens', () => {
  it('an admin whose role is removed is refused admin routes with their old token at once', async () => {
    const exAdmin = await auth.signIn('ex-admin@example.com');
    await auth.post(`/api/user/update/${exAdmin.user._id}`, { info: { role: 'admin' } }, admin);
    const promoted = await auth.post('/api/user/isauth', { token: exAdmin.token });
    const adminToken: string = promoted.body.token;
    expect(adminToken).toEqual(expect.any(String));
    expect((await auth.get('/api/user/getallusers?page=1&limit=1', adminToken)).status).toBe(200);

    await auth.post(`/api/user/update/${exAdmin.user._id}`, { info: { role: 'user' } }, admin);
    expect((await auth.get('/api/user/getallusers?page=1&limit=1', adminToken)).status).toBe(403);
    const isauth = await auth.post('/api/user/isauth', { token: adminToken });
    expect(isauth.body.user.role).toBe('user');
    expect(isauth.body.token).toEqual(expect.any(String));
  });
});
