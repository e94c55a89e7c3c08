/**
 * Google sign-in (OpenID Connect code flow with PKCE) against a local OpenID provider, over real HTTP:
 * the browser is a fetch with manual redirects and a cookie jar that clicks through the provider's pages.
 */
import { createEmbeddedStore, type DocumentStore } from '@nudge/platform';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GoogleIdentity } from '../src/app/google-sign-in';
import { type GoogleSignInOptions, googleRoutes, OIDC_COOKIE, parseCookies } from '../src/http/google-routes';
import {
  CookieJar,
  type LateServer,
  locationOf,
  request,
  signInAtProvider,
  startLateServer,
  startTestProvider,
  type TestProvider,
} from './google-oidc-harness';

const CLIENT_ID = 'nudge-web';
const CLIENT_SECRET = 'a-long-enough-test-client-secret-0123456789';
const FRONTEND = 'http://localhost:5173';

const ACCOUNTS = {
  alice: { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Liddell' },
  unverified: {
    email: 'mallory@example.com',
    email_verified: false,
    given_name: 'Mallory',
    family_name: 'M',
  },
  noemail: { given_name: 'Nobody' },
};

let provider: TestProvider;
let app: LateServer;
let unconfigured: LateServer;
let store: DocumentStore;
let callbackUrl: string;
const signIns: GoogleIdentity[] = [];
const logLines: Array<{ msg?: string; reason?: string }> = [];

type FlowDoc = { _id: string; verifier: string; nonce: string; redirectUrl: string; expiresAt: number };
const flows = () => store.collection<FlowDoc>('oidc_flows');

function routes(overrides: Partial<GoogleSignInOptions>, publicUrl: string) {
  const server = express();
  server.use(
    googleRoutes({
      publicUrl,
      redirectAllowlist: [FRONTEND],
      store,
      log: pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) }),
      async signInWithGoogle(identity) {
        signIns.push(identity);
        return { uid: 'test-uid' };
      },
      signOut: async () => undefined,
      ...overrides,
    }),
  );
  return server;
}

beforeAll(async () => {
  store = createEmbeddedStore({});
  app = await startLateServer();
  unconfigured = await startLateServer();
  callbackUrl = `${app.url}/auth/google/callback`;
  provider = await startTestProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: callbackUrl,
    accounts: ACCOUNTS,
  });
  app.setHandler(
    routes(
      {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        issuer: provider.issuer,
        allowInsecureIssuer: true,
      },
      app.url,
    ),
  );
  unconfigured.setHandler(routes({}, unconfigured.url));
});

afterAll(async () => {
  await Promise.all([app?.close(), unconfigured?.close(), provider?.close()]);
  await store?.close();
});

beforeEach(() => {
  signIns.length = 0;
  logLines.length = 0;
});

const start = (redirectUrl?: string) => {
  const url = new URL('/auth/google', app.url);
  if (redirectUrl !== undefined) url.searchParams.set('redirectUrl', redirectUrl);
  return url;
};

/** Runs the provider part of the flow; returns the browser's jar and the callback URL it was sent to (unvisited). */
async function toCallback(login: string, redirectUrl?: string, options: { deny?: boolean } = {}) {
  const jar = new CookieJar();
  const callback = await signInAtProvider(jar, start(redirectUrl), callbackUrl, login, options);
  return { jar, callback };
}

function expectFailedRedirect(response: Response, target: string) {
  expect(response.status).toBe(302);
  const location = locationOf(response, app.url);
  expect(`${location.origin}${location.pathname}`).toBe(target);
  expect(location.searchParams.get('error')).toBe('google_signin_failed');
  expect(location.searchParams.has('uid')).toBe(false);
  return location;
}

/** The reason the route logged for the last failure (reasons are logged, never shown to the browser). */
const lastFailure = () => logLines.filter((l) => l.msg === 'Google sign-in failed').at(-1)?.reason;

describe('GET /auth/google', () => {
  it('answers 503 when Google sign-in is not configured', async () => {
    const response = await fetch(`${unconfigured.url}/auth/google?redirectUrl=/`, { redirect: 'manual' });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: false, message: 'Google sign-in is not configured' });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it.each([
    'https://evil.example/steal',
    '//evil.example/steal',
    '/\\evil.example/steal',
    'javascript:alert(1)',
    'http://127.0.0.1.evil.example/',
    `${FRONTEND}.evil.example/`,
    'evil.example',
  ])('refuses the redirect address %s with 400 and sets no cookie', async (redirectUrl) => {
    const before = await flows().countDocuments();
    const response = await fetch(start(redirectUrl), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: false, message: 'This redirect address is not allowed' });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('location')).toBeNull();
    expect(await flows().countDocuments()).toBe(before);
  });

  it('redirects to the provider with PKCE, state and nonce, stores the flow and sets an httpOnly Lax cookie on /auth', async () => {
    const response = await fetch(start('/post/42?a=like'), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = locationOf(response, app.url);
    expect(location.origin).toBe(provider.issuer);
    const params = location.searchParams;
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('redirect_uri')).toBe(callbackUrl);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toBeTruthy();
    expect(params.get('nonce')).toBeTruthy();
    const state = params.get('state');
    expect(state).toBeTruthy();

    const [cookie, ...others] = response.headers.getSetCookie();
    expect(others).toEqual([]);
    expect(cookie).toMatch(new RegExp(`^${OIDC_COOKIE}=${state};`));
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\/auth(;|$)/);
    expect(cookie).not.toMatch(/; Secure/i); // publicUrl is http here

    const flow = await flows().findOne({ _id: state });
    expect(flow).toMatchObject({ _id: state, redirectUrl: `${app.url}/post/42?a=like` });
    expect(flow?.verifier).toEqual(expect.any(String));
    expect(flow?.verifier).not.toBe(params.get('code_challenge')); // only the challenge leaves the server
    expect(flow?.nonce).toBe(params.get('nonce'));
  });

  it('accepts an absolute redirect on an allowlisted origin, and defaults to the site root', async () => {
    const allowed = await fetch(start(`${FRONTEND}/setting`), { redirect: 'manual' });
    expect(allowed.status).toBe(302);
    const allowedFlow = await flows().findOne({
      _id: locationOf(allowed, app.url).searchParams.get('state'),
    });
    expect(allowedFlow?.redirectUrl).toBe(`${FRONTEND}/setting`);

    const plain = await fetch(start(), { redirect: 'manual' });
    expect(plain.status).toBe(302);
    const plainFlow = await flows().findOne({ _id: locationOf(plain, app.url).searchParams.get('state') });
    expect(plainFlow?.redirectUrl).toBe(`${app.url}/`);
  });

  it('sends the browser back with an error (not a 500) when the provider cannot be reached', async () => {
    const gone = await startLateServer();
    await gone.close();
    const broken = await startLateServer();
    broken.setHandler(
      routes(
        { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, issuer: gone.url, allowInsecureIssuer: true },
        broken.url,
      ),
    );
    try {
      const response = await fetch(`${broken.url}/auth/google?redirectUrl=/welcome`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = locationOf(response, broken.url);
      expect(`${location.origin}${location.pathname}`).toBe(`${broken.url}/welcome`);
      expect(location.searchParams.get('error')).toBe('google_signin_failed');
    } finally {
      await broken.close();
    }
  });
});

describe('the full sign-in', () => {
  it('goes provider -> login -> consent -> callback and lands on the redirect address with uid', async () => {
    const { jar, callback } = await toCallback('alice', '/post/42?a=like&userid=7');
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(jar.get(OIDC_COOKIE)).toBe(callback.searchParams.get('state'));

    const response = await request(jar, callback);
    expect(response.status).toBe(302);
    const location = locationOf(response, app.url);
    expect(`${location.origin}${location.pathname}`).toBe(`${app.url}/post/42`);
    expect(location.searchParams.get('uid')).toBe('test-uid');
    expect(location.searchParams.get('a')).toBe('like');
    expect(location.searchParams.get('userid')).toBe('7');
    expect(location.searchParams.has('error')).toBe(false);
    expect(signIns).toEqual([{ email: 'alice@example.com', givenName: 'Alice', familyName: 'Liddell' }]);

    // The cookie is cleared and the flow spent.
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${OIDC_COOKIE}=;`))).toBe(true);
    expect(jar.get(OIDC_COOKIE)).toBeUndefined();
    expect(await flows().findOne({ _id: callback.searchParams.get('state') })).toBeNull();
  });

  it('returns to an allowlisted front-end origin', async () => {
    const { jar, callback } = await toCallback('alice', `${FRONTEND}/?page=all`);
    const location = locationOf(await request(jar, callback), app.url);
    expect(location.href).toBe(`${FRONTEND}/?page=all&uid=test-uid`);
  });
});

describe('GET /auth/google/callback refuses', () => {
  it('a callback without the state cookie, and does not sign in', async () => {
    const { callback } = await toCallback('alice', '/welcome');
    const response = await request(new CookieJar(), callback); // a browser that did not start this flow
    expectFailedRedirect(response, `${app.url}/login`);
    expect(signIns).toEqual([]);
    expect(lastFailure()).toBe('no flow cookie');
  });

  it("a callback whose state is not the browser's own (login CSRF), and does not sign in", async () => {
    // The attacker's code and state, delivered to a victim whose browser started its own flow.
    const attacker = await toCallback('alice', '/attacker');
    const victim = new CookieJar();
    const started = await request(victim, start('/victim'));
    expect(started.status).toBe(302);
    expect(victim.get(OIDC_COOKIE)).toBeTruthy();

    const response = await request(victim, attacker.callback);
    expectFailedRedirect(response, `${app.url}/victim`);
    expect(lastFailure()).toBe('state does not match the cookie');
    expect(signIns).toEqual([]);
    expect(victim.get(OIDC_COOKIE)).toBeUndefined();
  });

  it('a cookie naming no stored flow, and does not sign in', async () => {
    const { callback } = await toCallback('alice', '/welcome');
    const forged = callback.searchParams.get('state') ?? '';
    await flows().deleteOne({ _id: forged });
    const response = await fetch(callback, {
      redirect: 'manual',
      headers: { cookie: `${OIDC_COOKIE}=${forged}` },
    });
    expectFailedRedirect(response, `${app.url}/login`);
    expect(lastFailure()).toBe('unknown or already used flow');
    expect(signIns).toEqual([]);
  });

  it('an expired flow', async () => {
    const { jar, callback } = await toCallback('alice', '/welcome');
    await flows().updateOne(
      { _id: callback.searchParams.get('state') },
      { $set: { expiresAt: Date.now() - 1 } },
    );
    const response = await request(jar, callback);
    expectFailedRedirect(response, `${app.url}/welcome`);
    expect(lastFailure()).toBe('flow expired');
    expect(signIns).toEqual([]);
  });

  it('a replayed callback (the same code and state a second time)', async () => {
    const { jar, callback } = await toCallback('alice', '/welcome');
    const cookie = `${OIDC_COOKIE}=${jar.get(OIDC_COOKIE)}`;
    const first = await request(jar, callback);
    expect(locationOf(first, app.url).searchParams.get('uid')).toBe('test-uid');

    // Replayed with the same cookie too (as an attacker holding both would): the flow is spent.
    const second = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expectFailedRedirect(second, `${app.url}/login`);
    expect(lastFailure()).toBe('unknown or already used flow');
    expect(signIns).toHaveLength(1);
  });

  it('an e-mail the provider has not verified', async () => {
    const { jar, callback } = await toCallback('unverified', '/welcome');
    const response = await request(jar, callback);
    expectFailedRedirect(response, `${app.url}/welcome`);
    expect(lastFailure()).toBe('e-mail not verified by the provider');
    expect(signIns).toEqual([]);
  });

  it('an identity without an e-mail', async () => {
    const { jar, callback } = await toCallback('noemail', '/welcome');
    const response = await request(jar, callback);
    expectFailedRedirect(response, `${app.url}/welcome`);
    expect(lastFailure()).toBe('no e-mail in the ID token');
    expect(signIns).toEqual([]);
  });

  it('denied consent (error=access_denied)', async () => {
    const { jar, callback } = await toCallback('alice', '/welcome?keep=1', { deny: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const response = await request(jar, callback);
    const location = expectFailedRedirect(response, `${app.url}/welcome`);
    expect(location.searchParams.get('keep')).toBe('1');
    expect(lastFailure()).toBe('provider answered error=access_denied');
    expect(signIns).toEqual([]);
    expect(jar.get(OIDC_COOKIE)).toBeUndefined();
  });

  it('a code the provider does not accept (token exchange error)', async () => {
    const { jar, callback } = await toCallback('alice', '/welcome');
    const tampered = new URL(callback);
    tampered.searchParams.set('code', 'not-a-real-code');
    const response = await request(jar, tampered);
    expectFailedRedirect(response, `${app.url}/welcome`);
    expect(lastFailure()).toBe('token exchange, ID token validation or sign-in failed');
    expect(signIns).toEqual([]);
  });
});

describe('GET /auth/logout', () => {
  it('clears the flow cookie and the flow, and answers 200', async () => {
    const jar = new CookieJar();
    await request(jar, start('/welcome'));
    const state = jar.get(OIDC_COOKIE);
    expect(state).toBeTruthy();

    const response = await request(jar, `${app.url}/auth/logout`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: true, message: 'Signed out' });
    const cleared = response.headers.getSetCookie().find((c) => c.startsWith(`${OIDC_COOKIE}=`));
    expect(cleared).toMatch(/^nudge_oidc=;.*Path=\/auth/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(jar.get(OIDC_COOKIE)).toBeUndefined();
    expect(await flows().findOne({ _id: state })).toBeNull();
  });

  it('redirects to an allowed redirectUrl and refuses any other', async () => {
    const allowed = await fetch(`${app.url}/auth/logout?redirectUrl=${encodeURIComponent('/login')}`, {
      redirect: 'manual',
    });
    expect(allowed.status).toBe(302);
    expect(allowed.headers.get('location')).toBe(`${app.url}/login`);

    const frontEnd = await fetch(`${app.url}/auth/logout?redirectUrl=${encodeURIComponent(`${FRONTEND}/`)}`, {
      redirect: 'manual',
    });
    expect(frontEnd.status).toBe(302);
    expect(frontEnd.headers.get('location')).toBe(`${FRONTEND}/`);

    const evil = await fetch(
      `${app.url}/auth/logout?redirectUrl=${encodeURIComponent('https://evil.example/')}`,
      { redirect: 'manual' },
    );
    expect(evil.status).toBe(400);
    expect(await evil.json()).toEqual({ status: false, message: 'This redirect address is not allowed' });
  });
});

describe('parseCookies', () => {
  it('reads name=value pairs, decodes values and keeps the first of a repeated name', () => {
    expect(parseCookies('a=1; nudge_oidc=abc%2Fdef; b="quoted"; a=2; junk; =x')).toEqual({
      a: '1',
      nudge_oidc: 'abc/def',
      b: 'quoted',
    });
    expect(parseCookies(undefined)).toEqual({});
    expect(parseCookies('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });
});
