import type { LogoutRedirect } from '../settings/types';

/** The fields of the user the sign-in rules look at. */
export interface UserNames {
  firstname: string;
  lastname: string;
  verified: boolean;
}

export const hasNames = (user: Pick<UserNames, 'firstname' | 'lastname'>): boolean =>
  user.firstname.trim() !== '' && user.lastname.trim() !== '';

/** What the login screen shows: home (redirect to /), the profile form (step 2), the code (step 1) or the e-mail (step 0). */
export type LoginScreen = 'home' | 'profile' | 'code' | 'email';

/**
 * reader.md §2/§4: a signed-in user with first name, last name and verified goes to /; a signed-in user still missing
 * them fills in the profile form (step 2); otherwise the step the visitor is on.
 */
export function loginScreen(input: { isLogin: boolean; user: UserNames | null; step: 0 | 1 }): LoginScreen {
  if (input.isLogin && input.user) return hasNames(input.user) && input.user.verified ? 'home' : 'profile';
  return input.step === 1 ? 'code' : 'email';
}

/** After a successful code: / when the names exist; null means stay for the profile form. */
export const afterVerifyDestination = (user: UserNames): string | null => (hasNames(user) ? '/' : null);

/** reader.md §2: signed-out visitors of / go to /login unless the feed is public; a sign-in link (uid) is spent first. */
export function homeRedirect(input: {
  isLogin: boolean;
  logoutRedirect: LogoutRedirect;
  hasLinkToken: boolean;
}): string | null {
  if (input.isLogin || input.hasLinkToken) return null;
  return input.logoutRedirect === 'login' ? '/login' : null;
}

/** The guard of protected pages: signed-out visitors go to `fallback` (/ by default; /setting sends them to /login). */
export const guardRedirect = (isLogin: boolean, fallback = '/'): string | null => (isLogin ? null : fallback);

const SIGN_IN_PAGES = new Set(['/', '/login', '/register']);
export const AFTER_LINK_SIGN_IN = '/?page=all';

/**
 * Where a sign-in link (e-mail or Google's return) leads. reader.md: /?page=all. When Google sign-in was started from
 * another page of this site (the stored return URL), that page is more useful, so we go back there.
 */
export function linkSignInDestination(returnUrl: string | null, origin: string): string {
  if (!returnUrl) return AFTER_LINK_SIGN_IN;
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    return AFTER_LINK_SIGN_IN;
  }
  if (url.origin !== origin || SIGN_IN_PAGES.has(url.pathname)) return AFTER_LINK_SIGN_IN;
  url.searchParams.delete('uid');
  url.searchParams.delete('error');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The server-side Google sign-in, returning to / of this site with ?uid=… (or ?error=google_signin_failed). */
export const googleSignInUrl = (origin: string): string =>
  `/auth/google?redirectUrl=${encodeURIComponent(`${origin}/`)}`;

export const GOOGLE_SIGN_IN_FAILED = 'google_signin_failed';

/** Google's failed return: whether the URL carries the error, and the URL without it (so a reload does not repeat it). */
export function takeGoogleSignInError(href: string): { failed: boolean; cleanUrl: string } {
  const url = new URL(href);
  if (url.searchParams.get('error') !== GOOGLE_SIGN_IN_FAILED) return { failed: false, cleanUrl: href };
  url.searchParams.delete('error');
  return { failed: true, cleanUrl: url.href };
}

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** reader.md §5: the e-mail is required and must look like one. */
export function emailProblem(raw: string): string | null {
  const email = raw.trim();
  if (!email) return 'Please enter your email';
  if (!EMAIL_FORMAT.test(email)) return 'Please enter a valid email';
  return null;
}
