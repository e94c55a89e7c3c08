import type { DocumentStore, Logger } from '@nudge/platform';
import { type Request, type Response, Router } from 'express';
import * as oidc from 'openid-client';
import type { GoogleIdentity } from '../app/google-sign-in';

export interface GoogleSignInOptions {
  clientId?: string;
  clientSecret?: string;
  /** The OpenID Connect issuer (https://accounts.google.com in production; a local provider in tests). */
  issuer?: string;
  /** Tests only: allow an http:// issuer. */
  allowInsecureIssuer?: boolean;
  publicUrl: string;
  redirectAllowlist: string[];
  store: DocumentStore;
  signInWithGoogle(identity: GoogleIdentity): Promise<{ uid: string }>;
  /** GET /auth/logout: ends the sessions of the request's bearer token, if it is a live session. */
  signOut(req: Request): Promise<unknown>;
  log: Logger;
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** The cookie binding a sign-in flow to the browser that started it; holds the flow's state. */
export const OIDC_COOKIE = 'nudge_oidc';
export const OIDC_FLOW_TTL_MS = 10 * 60_000;
const FLOWS = 'oidc_flows';
const COOKIE_PATH = '/auth';
const MAX_REDIRECT_LENGTH = 2048;

const NOT_CONFIGURED = 'Google sign-in is not configured';
const REDIRECT_NOT_ALLOWED = 'This redirect address is not allowed';
const FAILED = 'google_signin_failed';

/** One sign-in in progress, keyed by its OAuth `state`. */
type FlowDoc = { _id: string; verifier: string; nonce: string; redirectUrl: string; expiresAt: number };

/**
 * Google sign-in: OpenID Connect authorization-code flow with PKCE, state and nonce.
 *
 *   GET /auth/google?redirectUrl=…  -> 302 to Google (flow stored in `oidc_flows`, its state in the `nudge_oidc` cookie)
 *   GET /auth/google/callback       -> 302 to redirectUrl with `uid=<sign-in link token>`, or with `error=google_signin_failed`
 *   GET /auth/logout                -> ends the session of the bearer token (if any) everywhere and clears the flow
 *                                      cookie; 200 JSON, or 302 to an allowed redirectUrl
 *
 * The callback never answers with an error page: every failure sends the browser back with `error=google_signin_failed`
 * and the reason goes to the log.
 */
export function googleRoutes(opts: GoogleSignInOptions): Router {
  const router = Router();
  const base = opts.publicUrl.replace(/\/+$/, '');
  const publicUrl = new URL(base);
  const callbackUrl = `${base}/auth/google/callback`;
  const secureCookie = publicUrl.protocol === 'https:';
  const allowedOrigins = new Set([
    publicUrl.origin,
    ...opts.redirectAllowlist.flatMap((entry) => originOf(entry) ?? []),
  ]);
  const flows = opts.store.collection<FlowDoc>(FLOWS);
  const configured = Boolean(opts.clientId && opts.clientSecret);

  /** Absolute redirect target, or null when not allowed (never an open redirect). */
  const resolveRedirect = (raw: unknown): URL | null => {
    if (raw === undefined || raw === '') return new URL(`${base}/`);
    if (typeof raw !== 'string' || raw.length > MAX_REDIRECT_LENGTH) return null;
    let url: URL;
    if (raw.startsWith('/')) {
      // A relative path, not a protocol-relative '//host' (nor '/\host', which browsers read the same way).
      if (raw.startsWith('//') || raw.startsWith('/\\')) return null;
      const resolved = tryUrl(base + raw);
      if (!resolved || resolved.origin !== publicUrl.origin) return null;
      url = resolved;
    } else {
      const parsed = tryUrl(raw);
      if (!parsed) return null;
      url = parsed;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    return allowedOrigins.has(url.origin) ? url : null;
  };

  // Discovery is cached once it succeeds; a failed attempt is forgotten so the next request tries again.
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = (): Promise<oidc.Configuration> => {
    if (!discovered) {
      const options = opts.allowInsecureIssuer ? { execute: [oidc.allowInsecureRequests] } : undefined;
      discovered = oidc.discovery(
        new URL(opts.issuer ?? GOOGLE_ISSUER),
        opts.clientId ?? '',
        opts.clientSecret,
        undefined,
        options,
      );
      discovered.catch(() => {
        discovered = undefined;
      });
    }
    return discovered;
  };

  const setFlowCookie = (res: Response, state: string) => {
    res.cookie(OIDC_COOKIE, state, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie,
      path: COOKIE_PATH,
      maxAge: OIDC_FLOW_TTL_MS,
    });
  };
  const clearFlowCookie = (res: Response) => {
    res.clearCookie(OIDC_COOKIE, {
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie,
      path: COOKIE_PATH,
    });
  };

  /** Sends the browser back with error=google_signin_failed; the reason is logged, never shown. */
  const fail = (res: Response, target: string | undefined, reason: string, err?: unknown) => {
    opts.log.warn({ reason, ...(err ? { err: describeError(err) } : {}) }, 'Google sign-in failed');
    const url = (target && tryUrl(target)) || new URL(`${base}/login`);
    url.searchParams.set('error', FAILED);
    clearFlowCookie(res);
    res.redirect(302, url.href);
  };

  router.get('/auth/google', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!configured) {
      res.status(503).json({ status: false, message: NOT_CONFIGURED });
      return;
    }
    const redirectUrl = resolveRedirect(req.query.redirectUrl);
    if (!redirectUrl) {
      res.status(400).json({ status: false, message: REDIRECT_NOT_ALLOWED });
      return;
    }
    try {
      const config = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const challenge = await oidc.calculatePKCECodeChallenge(verifier);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const now = Date.now();
      await flows.deleteMany({ expiresAt: { $lte: now } });
      await flows.insertOne({
        _id: state,
        verifier,
        nonce,
        redirectUrl: redirectUrl.href,
        expiresAt: now + OIDC_FLOW_TTL_MS,
      });
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl,
        scope: 'openid email profile',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      setFlowCookie(res, state);
      res.redirect(302, authorizationUrl.href);
    } catch (err) {
      fail(res, redirectUrl.href, 'could not start the sign-in (provider discovery or store)', err);
    }
  });

  router.get('/auth/google/callback', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const cookieState = parseCookies(req.header('cookie'))[OIDC_COOKIE];
    let flow: FlowDoc | null = null;
    try {
      // The flow this browser started is spent by any callback, successful or not.
      if (cookieState) {
        flow = await flows.findOne({ _id: cookieState });
        if (flow && (await flows.deleteOne({ _id: flow._id })).deletedCount === 0) flow = null; // spent concurrently
      }
    } catch (err) {
      fail(res, undefined, 'could not load the sign-in flow', err);
      return;
    }
    const target = flow?.redirectUrl;
    if (!configured) return fail(res, target, 'not configured');
    if (!cookieState) return fail(res, target, 'no flow cookie');
    if (!flow) return fail(res, target, 'unknown or already used flow');
    if (flow.expiresAt <= Date.now()) return fail(res, target, 'flow expired');
    const queryState = req.query.state;
    if (typeof queryState !== 'string' || queryState !== cookieState)
      return fail(res, target, 'state does not match the cookie');
    if (req.query.error !== undefined) {
      return fail(res, target, `provider answered error=${String(req.query.error)}`);
    }

    try {
      const config = await configuration();
      // The URL the browser came back to: the public callback URL with the query it brought.
      const queryAt = req.originalUrl.indexOf('?');
      const currentUrl = new URL(callbackUrl);
      currentUrl.search = queryAt >= 0 ? req.originalUrl.slice(queryAt) : '';
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow._id,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return fail(res, target, 'no ID token');
      const email = claims.email;
      if (typeof email !== 'string' || !email.includes('@'))
        return fail(res, target, 'no e-mail in the ID token');
      if (claims.email_verified !== true) return fail(res, target, 'e-mail not verified by the provider');
      const identity: GoogleIdentity = { email };
      if (typeof claims.given_name === 'string' && claims.given_name) identity.givenName = claims.given_name;
      if (typeof claims.family_name === 'string' && claims.family_name)
        identity.familyName = claims.family_name;

      const { uid } = await opts.signInWithGoogle(identity);
      const back = new URL(flow.redirectUrl);
      back.searchParams.delete('error');
      back.searchParams.set('uid', uid);
      clearFlowCookie(res);
      opts.log.info('Google sign-in succeeded');
      res.redirect(302, back.href);
    } catch (err) {
      fail(res, target, 'token exchange, ID token validation or sign-in failed', err);
    }
  });

  /**
   * The contract's sign-out: ends the caller's sessions on the server (every session of the user, as POST
   * /api/user/logout does) when the request carries a live session token as `Authorization: Bearer` (the web sends
   * it; a cross-site page cannot, so a link or an image elsewhere never signs anyone out), and clears what the
   * server set in the browser: a half-finished Google flow and its cookie.
   */
  router.get('/auth/logout', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const hasRedirect = req.query.redirectUrl !== undefined && req.query.redirectUrl !== '';
    const redirectUrl = hasRedirect ? resolveRedirect(req.query.redirectUrl) : null;
    if (hasRedirect && !redirectUrl) {
      res.status(400).json({ status: false, message: REDIRECT_NOT_ALLOWED });
      return;
    }
    await opts.signOut(req);
    const state = parseCookies(req.header('cookie'))[OIDC_COOKIE];
    if (state) {
      try {
        await flows.deleteOne({ _id: state });
      } catch (err) {
        opts.log.warn({ err: describeError(err) }, 'could not delete a sign-in flow at logout');
      }
    }
    clearFlowCookie(res);
    if (redirectUrl) {
      res.redirect(302, redirectUrl.href);
      return;
    }
    res.json({ status: true, message: 'Signed out' });
  });

  return router;
}

/** A tiny Cookie header parser: `a=1; b=2` -> { a: '1', b: '2' }. The first occurrence of a name wins. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in cookies) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

function tryUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function originOf(entry: string): string | null {
  const url = tryUrl(entry.trim());
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : null;
}

/** Enough of an error for the log, without tokens or codes. */
function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const { code, error, status } = err as Error & { code?: unknown; error?: unknown; status?: unknown };
    return { name: err.name, message: err.message, code, error, status };
  }
  return { message: String(err) };
}
