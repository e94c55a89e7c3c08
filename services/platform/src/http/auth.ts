import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { forbidden, unauthorized } from '../errors';
import type { Role, SessionClaims, TokenVerifier } from '../tokens';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by authenticate() when the request carries a valid session token; role is the current one. */
    auth?: SessionClaims & { tokenRole: Role };
  }
}

/** The token as the contract sends it (body field `token`) or as `Authorization: Bearer <token>`. */
export function tokenFrom(req: Request): string | undefined {
  const header = req.header('authorization');
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim();
  const bodyToken = (req.body as { token?: unknown } | undefined)?.token;
  return typeof bodyToken === 'string' ? bodyToken : undefined;
}

export interface AuthenticateOptions {
  verifier: TokenVerifier;
  /**
   * Looks up the user's current role, so a role change (premium bought, admin revoked) applies at once even to
   * tokens signed before it. Returns null when the user no longer exists, undefined when this service has not heard
   * of the user yet (their events are still on the bus): the token's role then stands. Services without a user read
   * model omit it.
   */
  currentRole?: (userId: string) => Promise<Role | null | undefined>;
}

/** Reads and verifies the session token if there is one; never refuses (use requireUser / requireRole for that). */
export function authenticate({ verifier, currentRole }: AuthenticateOptions): RequestHandler {
  return async (req, _res, next) => {
    try {
      const claims = await verifier.verifySession(tokenFrom(req));
      if (claims && currentRole) {
        const role = await currentRole(claims.userId);
        req.auth =
          role === null ? undefined : { ...claims, role: role ?? claims.role, tokenRole: claims.role };
      } else {
        req.auth = claims ? { ...claims, tokenRole: claims.role } : undefined;
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}

export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.auth ? undefined : unauthorized());
};

export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) return next(unauthorized());
    next(roles.includes(req.auth.role) ? undefined : forbidden('You need to be an admin to do this'));
  };
}

/** The signed-in user's claims; only call behind requireUser / requireRole. */
export function claimsOf(req: Request): SessionClaims {
  if (!req.auth) throw unauthorized();
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
