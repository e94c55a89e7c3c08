import type { User } from '@nudge/contracts';
import { createInternalClient, type Logger } from '@nudge/platform';

/** The full user record, for answers that return it (reader.md §4: a refused checkout returns the user). */
export interface UserRecords {
  get(userId: string): Promise<User | null>;
}

/** Asks auth's internal API (GET /internal/users/:id); null when auth is not configured or does not answer. */
export function createAuthUserRecords(opts: {
  authUrl?: string;
  internalToken: string;
  log: Logger;
  timeoutMs?: number;
}): UserRecords {
  const base = opts.authUrl;
  const client = createInternalClient({ internalToken: opts.internalToken });
  const timeoutMs = opts.timeoutMs ?? 3000;
  return {
    async get(userId) {
      if (!base) return null;
      try {
        const { status, body } = await client.exchange(
          base,
          `/internal/users/${encodeURIComponent(userId)}`,
          {
            timeoutMs,
          },
        );
        if (status < 200 || status >= 300) {
          opts.log.warn({ userId, status }, 'auth did not return the user');
          return null;
        }
        if (body === null) throw new Error(`auth answered ${status} without JSON`);
        return (body as { user?: User }).user ?? null;
      } catch (err) {
        opts.log.warn({ err, userId }, 'auth could not be asked for the user');
        return null;
      }
    },
  };
}
