import { notFound, revokedAt, sessionRevoked, type TokenVerifier } from '@nudge/platform';
import { decideSessionsRevoked } from '../domain/user';
import type { UserRepository } from './user-repository';

/**
 * Ends sessions on the server: appends auth.SessionsRevoked with the current time, which auth's read model applies
 * with the append (so auth refuses the old tokens and e-mailed links at once) and every other service's user copy
 * applies from the bus. The time is the wall clock, the same clock the tokens' and links' `iatms` come from.
 */
export function createSessions(
  users: UserRepository,
  verifier: TokenVerifier,
  now: () => Date = () => new Date(),
) {
  /** Ends every session of the user issued up to now. `actor` is who asked (the user, or an admin). */
  async function revoke(userId: string, reason: 'logout' | 'admin', actor: string): Promise<void> {
    const revoked = await users.update(userId, (user) => decideSessionsRevoked(user, now(), reason), actor);
    if (!revoked) throw notFound('User not found');
  }

  return {
    revoke,
    /**
     * GET /auth/logout: signs the token's user out everywhere, as POST /api/user/logout does, when the token is a
     * live session; anything else (no token, a bad one, one already ended) ends nothing, so an old tab signing out
     * never ends the sessions begun after it. False when nothing was ended.
     */
    async signOut(token: string | undefined): Promise<boolean> {
      const claims = await verifier.verifySession(token);
      const user = claims && (await users.get(claims.userId));
      if (!claims || !user) return false;
      if (sessionRevoked(claims, { sessionsRevokedBefore: revokedAt(user.sessionsRevokedBefore) }))
        return false;
      await revoke(user._id, 'logout', user._id);
      return true;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
