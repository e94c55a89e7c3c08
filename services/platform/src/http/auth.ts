import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { forbidden, unauthorized } from '../errors';
import type { Role, SessionClaims, TokenVerifier, VerifiedSession } from '../tokens';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by authenticate() when the request carries a valid session token; role is the current one. */
    auth?: VerifiedSession & { tokenRole: Role };
    /** Set by authenticate() when the token is genuine but its session has ended (logout, or an admin ended it). */
    sessionEnded?: boolean;
  }
}

/** The token as the contract sends it (body field `token`) or as `Authorization: Bearer <token>`. */
export function tokenFrom(req: Request): string | undefined {
  const header = req.header('authorization');
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  const bodyToken = (req.body as { token?: unknown } | undefined)?.token;
  return typeof bodyToken === 'string' ? bodyToken : undefined;
}

/** What a service's user copy says about a user's sessions: the current role, and when their sessions were ended. */
export interface CurrentUser {
  role: Role;
  /** Sessions issued at or before this time (ms since the epoch) are refused: logout, or an admin ended them. */
  sessionsRevokedBefore?: number | null;
}

export const SESSION_ENDED = 'Your session has ended; please sign in again';

export interface AuthenticateOptions {
  verifier: TokenVerifier;
  /**
   * Looks up the user in the service's copy, so a role change (premium bought or ended, admin granted or removed)
   * applies at once even to tokens signed before it, and a revoked session is refused. Returns null when the user no
   * longer exists, undefined when this service has not heard of the user yet (their events are still on the bus):
   * the token's role then stands. Services without a user read model omit it. It gets the response too, to keep what
   * it read for the route (res.locals).
   */
  currentUser?: (userId: string, res: Response) => Promise<CurrentUser | null | undefined>;
}

/**
 * True when the token (a session, or an e-mailed link that mints one) was issued at or before the user's revocation
 * time (a token of the same millisecond too).
 */
export const sessionRevoked = (
  claims: { issuedAtMs: number },
  user: Pick<CurrentUser, 'sessionsRevokedBefore'> | null | undefined,
): boolean =>
  typeof user?.sessionsRevokedBefore === 'number' && claims.issuedAtMs <= user.sessionsRevokedBefore;

/**
 * Reads and verifies the session token if there is one; never refuses (use requireUser / requireRole for that). A
 * missing, bad or expired token, or one of an ended session, leaves the request anonymous, so a public route (the feed)
 * still serves a browser holding an old token; requireUser / requireRole then refuse an ended session with
 * SESSION_ENDED.
 */
export function authenticate({ verifier, currentUser }: AuthenticateOptions): RequestHandler {
  return async (req, res, next) => {
    try {
      const claims = await verifier.verifySession(tokenFrom(req));
      if (claims && currentUser) {
        const user = await currentUser(claims.userId, res);
        if (sessionRevoked(claims, user)) {
          req.auth = undefined;
          req.sessionEnded = true;
          return next();
        }
        req.auth =
          user === null ? undefined : { ...claims, role: user?.role ?? claims.role, tokenRole: claims.role };
      } else {
        req.auth = claims ? { ...claims, tokenRole: claims.role } : undefined;
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The 401 for a request without a usable session: SESSION_ENDED when its token's session has ended. */
export const notSignedIn = (req: Request) =>
  req.sessionEnded ? unauthorized(SESSION_ENDED) : unauthorized();

export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.auth ? undefined : notSignedIn(req));
};

export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) return next(notSignedIn(req));
    next(roles.includes(req.auth.role) ? undefined : forbidden('You need to be an admin to do this'));
  };
}

/** The signed-in user's claims; only call behind requireUser / requireRole. */
export function claimsOf(req: Request): SessionClaims {
  if (!req.auth) throw notSignedIn(req);
  return req.auth;
}

/** Guards /internal routes: the shared service credential, compared in constant time. */
export function requireInternal(internalToken: string): RequestHandler {
  const expected = Buffer.from(internalToken);
  return (req, _res, next) => {
    const given = Buffer.from(req.header('x-internal-token') ?? '');
    const ok = given.length === expected.length && crypto.timingSafeEqual(given, expected);
    next(ok ? undefined : forbidden('Internal route'));
  };
}
