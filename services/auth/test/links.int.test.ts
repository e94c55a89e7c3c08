import { createHmac } from 'node:crypto';
import { loadOrCreateSigningKeys } from '@nudge/platform';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

let auth: AuthHarness;
let userId: string;

beforeAll(async () => {
  auth = await startAuth();
  ({
    user: { _id: userId },
  } = await auth.signIn('links@example.com'));
});

const USED = 'This sign-in link has already been used; please sign in with your email';
const ENDED_LINK =
  'This sign-in link no longer works because you were signed out; please sign in with your email';

describe('a sign-in link gives one session, and a sign-out ends the links sent before it', () => {
  it('is spent by its first use: a second click, or parallel ones, get no second session', async () => {
    const { user } = await auth.signIn('once@example.com');
    const link = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    const first = await auth.post(`/api/user/signinbytoken/${link.token}`, {});
    expect(first.status).toBe(200);
    const again = await auth.post(`/api/user/signinbytoken/${link.token}`, {});
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ status: false, message: USED });

    const other = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    const parallel = await Promise.all(
      Array.from({ length: 8 }, () => auth.post(`/api/user/signinbytoken/${other.token}`, {})),
    );
    expect(parallel.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
    for (const r of parallel.filter((p) => p.status === 401)) expect(r.body.message).toBe(USED);
  });

  it('is spent once across auth replicas (the spent links live in the shared store)', async () => {
    const { user } = await auth.signIn('two-pods@example.com');
    const pod2 = await auth.replica();
    const link = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    const replies = await Promise.all([
      auth.post(`/api/user/signinbytoken/${link.token}`, {}),
      pod2.post(`/api/user/signinbytoken/${link.token}`, {}),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await pod2.post(`/api/user/signinbytoken/${link.token}`, {})).body.message).toBe(USED);
  });

  it('a sign-out ends every sign-in link and check-in link sent before it; later ones work', async () => {
    const { user, token } = await auth.signIn('signs-out@example.com');
    const before = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    const checkinSentAt = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 2));
    expect((await auth.post('/api/user/logout', { token })).status).toBe(200);

    const refused = await auth.post(`/api/user/signinbytoken/${before.token}`, {});
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ status: false, message: ENDED_LINK });
    const checkin = await internal(
      '/internal/tokens/session',
      { userId: user._id, linkIssuedAt: checkinSentAt },
      auth.internalToken,
    );
    expect(checkin.status).toBe(410);

    await new Promise((r) => setTimeout(r, 2));
    const after = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    expect((await auth.post(`/api/user/signinbytoken/${after.token}`, {})).status).toBe(200);
    const laterCheckin = await internal(
      '/internal/tokens/session',
      { userId: user._id, linkIssuedAt: new Date().toISOString() },
      auth.internalToken,
    );
    expect(laterCheckin.status).toBe(200);
  });

  it('an admin ending a reader’s sessions ends their links too', async () => {
    const boss = await auth.signIn('boss@example.com');
    const { user } = await auth.signIn('compromised@example.com');
    const link = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    await new Promise((r) => setTimeout(r, 2));
    expect((await auth.post(`/api/user/revokesessions/${user._id}`, {}, boss.token)).status).toBe(200);
    const refused = await auth.post(`/api/user/signinbytoken/${link.token}`, {});
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(ENDED_LINK);
  });

  it('a refused link (used, ended) changes nothing: no sign-in is recorded', async () => {
    const { user } = await auth.signIn('recorded@example.com');
    const link = await mint('/internal/tokens/signin-link', { userId: user._id }, auth.internalToken);
    expect((await auth.post(`/api/user/signinbytoken/${link.token}`, {})).status).toBe(200);
    const events = (await auth.events.readStream(`user-${user._id}`)).length;
    expect((await auth.post(`/api/user/signinbytoken/${link.token}`, {})).status).toBe(401);
    expect(await auth.events.readStream(`user-${user._id}`)).toHaveLength(events);
  });
});
afterAll(() => auth.close());

const internal = (path: string, body: unknown, token?: string) =>
  fetch(auth.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-internal-token': token } : {}) },
    body: JSON.stringify(body),
  });

const mint = async (path: string, body: unknown, token: string): Promise<any> =>
  (await internal(path, body, token)).json();

describe('signed e-mail links and internal token minting', () => {
  it('internal calls are refused without the service credential', async () => {
    expect((await internal('/internal/tokens/signin-link', { userId })).status).toBe(403);
    expect((await internal('/internal/tokens/session', { userId }, 'wrong'.repeat(8))).status).toBe(403);
  });

  it('a sign-in link token signs the user in; a raw user id does not', async () => {
    const minted = await mint('/internal/tokens/signin-link', { userId }, auth.internalToken);
    expect(minted.url).toBe(`http://localhost:8080/?uid=${encodeURIComponent(minted.token)}`);
    const res = await auth.post(`/api/user/signinbytoken/${minted.token}`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, user: { _id: userId }, token: expect.any(String) });
    const byId = await auth.post(`/api/user/signinbytoken/${userId}`, {});
    expect(byId.status).toBe(401);
    expect(byId.body.status).toBe(false);
  });

  it('an unsubscribe token cannot sign in, and a sign-in token cannot unsubscribe', async () => {
    const unsub = await mint('/internal/tokens/unsubscribe', { userId }, auth.internalToken);
    const signin = await mint('/internal/tokens/signin-link', { userId }, auth.internalToken);
    expect((await auth.post(`/api/user/signinbytoken/${unsub.token}`, {})).status).toBe(401);
    expect((await auth.get(`/api/user/getnotificationdetails/${signin.token}`)).status).toBe(401);
  });

  it('the unsubscribe page reads and toggles the subscription', async () => {
    const unsub = await mint('/internal/tokens/unsubscribe', { userId }, auth.internalToken);
    expect(unsub.url).toContain('/unsubscribe/');
    const details = await auth.get(`/api/user/getnotificationdetails/${unsub.token}`);
    expect(details.body).toEqual({
      status: true,
      user: { email: 'links@example.com', notiinfo: { time: '08:00', active: true } },
    });
    const off = await auth.put(`/api/user/updatenotificationdetails/${unsub.token}`);
    expect(off.body.user.notiinfo.active).toBe(false);
    const on = await auth.put(`/api/user/updatenotificationdetails/${unsub.token}`);
    expect(on.body.user.notiinfo.active).toBe(true);
  });

  it('links are HS256 with the link secret; an Ed25519 link from an older e-mail still works until it expires', async () => {
    const minted = await mint('/internal/tokens/unsubscribe', { userId }, auth.internalToken);
    const [header = '', payload = ''] = minted.token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256' });
    // An EdDSA link signed with auth's private key, which verification still accepts until its exp; issued a year ago
    // minus a day.
    const keys = await loadOrCreateSigningKeys(auth.dataDir);
    const legacy = (audience: string) =>
      new SignJWT({ typ: 'link' })
        .setProtectedHeader({ alg: 'EdDSA' })
        .setSubject(userId)
        .setIssuer('nudge-auth')
        .setAudience(audience)
        .setJti('old')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 364 * 86_400)
        .setExpirationTime('1d')
        .sign(keys.privateKey);
    const old = await legacy('nudge-link:unsubscribe');
    const details = await auth.get(`/api/user/getnotificationdetails/${old}`);
    expect(details.status).toBe(200);
    expect(details.body.user.email).toBe('links@example.com');
    const signedIn = await auth.post(`/api/user/signinbytoken/${await legacy('nudge-link:signin')}`, {});
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user._id).toBe(userId);
    // The payload of a genuine link, re-signed with HS256 keyed with the public key (which anyone may hold): refused.
    const input = `${Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url')}.${payload}`;
    const confused = `${input}.${createHmac('sha256', keys.publicKeyPem).update(input).digest('base64url')}`;
    expect((await auth.get(`/api/user/getnotificationdetails/${confused}`)).status).toBe(401);
    // A link is no session: refused where a session token is expected.
    expect((await auth.post('/api/user/isauth', { token: minted.token })).status).toBe(401);
  });

  it('the session minted for a check-in answer works like a sign-in', async () => {
    const linkIssuedAt = new Date().toISOString();
    const minted = await mint('/internal/tokens/session', { userId, linkIssuedAt }, auth.internalToken);
    expect(minted.user._id).toBe(userId);
    const me = await auth.post('/api/user/isauth', { token: minted.token });
    expect(me.body.user._id).toBe(userId);
  });

  it('a check-in session needs the time its link was sent (400 without it)', async () => {
    const res = await internal('/internal/tokens/session', { userId }, auth.internalToken);
    expect(res.status).toBe(400);
  });

  it('minting for an unknown user is a 404', async () => {
    const res = await internal(
      '/internal/tokens/signin-link',
      { userId: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
      auth.internalToken,
    );
    expect(res.status).toBe(404);
  });
});
