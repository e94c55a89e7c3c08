import type { LinkTokens } from '@nudge/platform';
import type { Profile } from './profile';
import type { UserRepository } from './user-repository';

/** The browser comes back from Google with this short-lived sign-in link token as `uid` (like an e-mail link). */
export const GOOGLE_HANDOFF_TTL_S = 5 * 60;

export interface GoogleIdentity {
  email: string;
  givenName?: string;
  familyName?: string;
}

/**
 * After Google vouches for a verified e-mail: find or register the user (names from Google fill blank ones)
 * and return a short-lived sign-in link token. The browser spends it at /api/user/signinbytoken/{uid},
 * which returns the session, as for an e-mail link.
 */
export function createGoogleSignIn(deps: { users: UserRepository; profile: Profile; links: LinkTokens }) {
  return async (identity: GoogleIdentity): Promise<{ uid: string }> => {
    const { user } = await deps.users.findOrRegister(
      { email: identity.email.toLowerCase(), source: 'google' },
      null,
    );
    const names: { firstname?: string; lastname?: string } = {};
    if (!user.firstname && identity.givenName) names.firstname = identity.givenName.slice(0, 100);
    if (!user.lastname && identity.familyName) names.lastname = identity.familyName.slice(0, 100);
    if (Object.keys(names).length) await deps.profile.update(user._id, names, user._id);
    return { uid: deps.links.signLink(user._id, 'signin', GOOGLE_HANDOFF_TTL_S) };
  };
}
