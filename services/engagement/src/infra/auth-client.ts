import { tracedHeaders } from '@nudge/platform';
import { z } from 'zod';

/** The part of auth's UserResponse the comment check reads. */
const UserNames = z.object({
  status: z.literal(true),
  user: z.object({ firstname: z.string(), lastname: z.string() }),
});

/** auth could not be reached or failed: the caller answers 503. */
export class AuthUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthUnavailableError';
  }
}

export interface AuthSession {
  token: string;
  /** The user as auth's responses return it. */
  user: { _id: string } & Record<string, unknown>;
}

/** The port to auth's internal session minting (only auth signs tokens). */
export interface AuthSessions {
  /** A session for the user; null when auth does not know the user; throws AuthUnavailableError otherwise. */
  sessionFor(userId: string): Promise<AuthSession | null>;
  /**
   * The user's names as auth has them now (GET /internal/users/:id), for a check that must not wait for the user
   * directory to catch up; null when auth does not know the user; throws AuthUnavailableError otherwise.
   */
  names(userId: string): Promise<{ firstname: string; lastname: string } | null>;
}

/** POST {authUrl}/internal/tokens/session with the internal credential (services/auth/src/http/internal-routes.ts). */
export function createHttpAuthSessions(opts: {
  /** auth's base URL; undefined = not configured (every call is unavailable). */
  baseUrl: string | undefined;
  internalToken: string;
  timeoutMs?: number;
}): AuthSessions {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  return {
    async names(userId) {
      if (!opts.baseUrl) throw new AuthUnavailableError('the auth service URL is not configured');
      let res: Response;
      try {
        res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}/internal/users/${encodeURIComponent(userId)}`, {
          headers: tracedHeaders({ 'x-internal-token': opts.internalToken }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new AuthUnavailableError('auth did not answer', { cause: err });
      }
      if (res.status === 404) return null;
      const parsed = UserNames.safeParse(await res.json().catch(() => null));
      if (!res.ok || !parsed.success) throw new AuthUnavailableError(`auth answered ${res.status}`);
      return parsed.data.user;
    },
    async sessionFor(userId) {
      if (!opts.baseUrl) throw new AuthUnavailableError('the auth service URL is not configured');
      let res: Response;
      try {
        res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}/internal/tokens/session`, {
          method: 'POST',
          headers: tracedHeaders({
            'content-type': 'application/json',
            'x-internal-token': opts.internalToken,
          }),
          body: JSON.stringify({ userId }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new AuthUnavailableError('auth did not answer', { cause: err });
      }
      if (res.status === 404) return null;
      const body = (await res.json().catch(() => null)) as {
        status?: unknown;
        token?: unknown;
        user?: unknown;
      } | null;
      if (
        !res.ok ||
        body?.status !== true ||
        typeof body.token !== 'string' ||
        !body.user ||
        typeof (body.user as { _id?: unknown })._id !== 'string'
      ) {
        throw new AuthUnavailableError(`auth answered ${res.status}`);
      }
      return { token: body.token, user: body.user as AuthSession['user'] };
    },
  };
}
