import { CONFLICT_MESSAGE, conflict, createInternalClient } from '@nudge/platform';
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
  /**
   * A session for the user, who proved themselves with an e-mailed link sent at `linkIssuedAt`; null when auth does
   * not know the user; 'ended' when the link was sent before the user's sessions were ended (a sign-out, an admin);
   * a 409 AppError when the user kept changing at the same moment; throws AuthUnavailableError otherwise.
   */
  sessionFor(userId: string, linkIssuedAt: string): Promise<AuthSession | null | 'ended'>;
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
  const client = createInternalClient({ internalToken: opts.internalToken });
  /** auth's answer; AuthUnavailableError when auth is not configured or does not answer. */
  const ask = async (path: string, body?: unknown) => {
    if (!opts.baseUrl) throw new AuthUnavailableError('the auth service URL is not configured');
    try {
      return await client.exchange(opts.baseUrl, path, { body, timeoutMs });
    } catch (err) {
      throw new AuthUnavailableError('auth did not answer', { cause: err });
    }
  };
  const ok = (status: number) => status >= 200 && status < 300;
  return {
    async names(userId) {
      const { status, body } = await ask(`/internal/users/${encodeURIComponent(userId)}`);
      if (status === 404) return null;
      const parsed = UserNames.safeParse(body);
      if (!ok(status) || !parsed.success) throw new AuthUnavailableError(`auth answered ${status}`);
      return parsed.data.user;
    },
    async sessionFor(userId, linkIssuedAt) {
      const { status, body: answer } = await ask('/internal/tokens/session', { userId, linkIssuedAt });
      if (status === 404) return null;
      if (status === 410) return 'ended';
      // The user changed at the same moment again and again: the reader may try again; auth is not down.
      if (status === 409) throw conflict(CONFLICT_MESSAGE);
      const body = answer as { status?: unknown; token?: unknown; user?: unknown } | null;
      if (
        !ok(status) ||
        body?.status !== true ||
        typeof body.token !== 'string' ||
        !body.user ||
        typeof (body.user as { _id?: unknown })._id !== 'string'
      ) {
        throw new AuthUnavailableError(`auth answered ${status}`);
      }
      return { token: body.token, user: body.user as AuthSession['user'] };
    },
  };
}
