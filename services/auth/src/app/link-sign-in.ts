import {
  type DocumentStore,
  DuplicateKeyError,
  type LinkClaims,
  type LinkTokens,
  revokedAt,
  sessionRevoked,
  unauthorized,
} from '@nudge/platform';
import type { UserState } from '../domain/user';
import type { SignIn } from './sign-in';
import type { UserRepository } from './user-repository';

export const LINK_TEXTS = {
  invalid: 'This sign-in link is not valid or has expired; please sign in with your email',
  used: 'This sign-in link has already been used; please sign in with your email',
  ended: 'This sign-in link no longer works because you were signed out; please sign in with your email',
} as const;

/** Sign-in links spent, by their `jti`, until they expire (then the link is refused for its age anyway). */
export const SPENT_LINKS = 'spent_links';
type SpentLink = { _id: string; userId: string; expiresAt: number };

const HOUR = 3600_000;

/**
 * A link issued at or before the user's sessions were ended (a sign-out, an admin) no longer signs anyone in: the
 * e-mail it came in may be what the revocation was about.
 */
export const linkEnded = (issuedAtMs: number, user: Pick<UserState, 'sessionsRevokedBefore'>): boolean =>
  sessionRevoked({ issuedAtMs }, { sessionsRevokedBefore: revokedAt(user.sessionsRevokedBefore) });

/**
 * POST /api/user/signinbytoken/{uid}: an e-mailed sign-in link (or Google's hand-off) gives one session, once. The
 * link is spent in the shared store (an insert keyed by its `jti`), so a second use is refused on every replica, and
 * parallel uses of one link give one session. Spent records are swept once their link has expired, at most once an
 * hour per instance.
 */
export function createLinkSignIn(deps: {
  store: DocumentStore;
  users: UserRepository;
  links: LinkTokens;
  signIn: SignIn;
  clock?: () => Date;
}) {
  const spent = deps.store.collection<SpentLink>(SPENT_LINKS);
  const clock = deps.clock ?? (() => new Date());
  let lastSweep = 0;

  /** True for the first use of the link, false for any later one. */
  async function spend(link: LinkClaims): Promise<boolean> {
    const now = clock().getTime();
    if (now - lastSweep > HOUR) {
      lastSweep = now;
      await spent.deleteMany({ expiresAt: { $lte: now } });
    }
    try {
      await spent.insertOne({ _id: link.jti, userId: link.userId, expiresAt: link.expiresAt.getTime() });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  return {
    ensureIndexes: () => spent.createIndex({ expiresAt: 1 }),

    async signIn(uid: string) {
      const link = await deps.links.verifyLink(uid, 'signin');
      const user = link && (await deps.users.get(link.userId));
      if (!link || !user) throw unauthorized(LINK_TEXTS.invalid);
      if (linkEnded(link.issuedAtMs, user)) throw unauthorized(LINK_TEXTS.ended);
      if (!(await spend(link))) throw unauthorized(LINK_TEXTS.used);
      return deps.signIn.completeSignIn(user, 'link');
    },
  };
}

export type LinkSignIn = ReturnType<typeof createLinkSignIn>;
