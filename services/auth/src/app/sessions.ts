import { notFound } from '@nudge/platform';
import { decideSessionsRevoked } from '../domain/user';
import type { UserRepository } from './user-repository';

/**
 * Ends sessions on the server: appends auth.SessionsRevoked with the current time, which auth's read model applies
 * with the append (so auth refuses the old tokens and links at once) and every other service's user copy applies from
 * the bus. The time is the wall clock, the same clock the session tokens' `iatms` and the links' `iatms` come from.
 */
export function createSessions(users: UserRepository, now: () => Date = () => new Date()) {
  return {
    /** Ends every session of the user issued up to now. `actor` is who asked (the user, or an admin). */
    async revoke(userId: string, reason: 'logout' | 'admin', actor: string): Promise<void> {
      const revoked = await users.update(userId, (user) => decideSessionsRevoked(user, now(), reason), actor);
      if (!revoked) throw notFound('User not found');
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
