import type { User } from '@nudge/contracts';
import { type Logger, tracedHeaders } from '@nudge/platform';

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
  const base = opts.authUrl?.replace(/\/+$/, '');
  return {
    async get(userId) {
      if (!base) return null;
      try {
        const res = await fetch(`${base}/internal/users/${encodeURIComponent(userId)}`, {
          headers: tracedHeaders({ 'x-internal-token': opts.internalToken }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 3000),
        });
        if (!res.ok) {
          opts.log.warn({ userId, status: res.status }, 'auth did not return the user');
          return null;
        }
        const body = (await res.json()) as { user?: User };
        return body.user ?? null;
      } catch (err) {
        opts.log.warn({ err, userId }, 'auth could not be asked for the user');
        return null;
      }
    },
  };
}
