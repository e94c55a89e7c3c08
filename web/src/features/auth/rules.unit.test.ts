import { describe, expect, it } from 'vitest';
import {
  AFTER_LINK_SIGN_IN,
  afterVerifyDestination,
  emailProblem,
  googleSignInUrl,
  guardRedirect,
  hasNames,
  homeRedirect,
  linkSignInDestination,
  loginScreen,
  takeGoogleSignInError,
} from './rules';

const complete = { firstname: 'Ada', lastname: 'Lovelace', verified: true };
const nameless = { firstname: '', lastname: '', verified: true };
const origin = 'https://nudge.example';

describe('login screen', () => {
  it('sends a signed-in user with names and verified home', () => {
    expect(loginScreen({ isLogin: true, user: complete, step: 0 })).toBe('home');
  });

  it('shows the profile form to a signed-in user missing names or not verified', () => {
    expect(loginScreen({ isLogin: true, user: nameless, step: 1 })).toBe('profile');
    expect(loginScreen({ isLogin: true, user: { ...complete, lastname: ' ' }, step: 0 })).toBe('profile');
    expect(loginScreen({ isLogin: true, user: { ...complete, verified: false }, step: 0 })).toBe('profile');
  });

  it('shows the step of a signed-out visitor', () => {
    expect(loginScreen({ isLogin: false, user: null, step: 0 })).toBe('email');
    expect(loginScreen({ isLogin: false, user: null, step: 1 })).toBe('code');
  });

  it('after a code: home when the names exist, else stay for step 2', () => {
    expect(afterVerifyDestination(complete)).toBe('/');
    expect(afterVerifyDestination(nameless)).toBeNull();
    expect(hasNames({ firstname: 'A', lastname: '' })).toBe(false);
  });
});

describe('home and guard redirects', () => {
  it('sends signed-out visitors of / to /login by default', () => {
    expect(homeRedirect({ isLogin: false, logoutRedirect: 'login', hasLinkToken: false })).toBe('/login');
  });

  it('keeps them on the feed when the feed is public, and keeps signed-in readers', () => {
    expect(homeRedirect({ isLogin: false, logoutRedirect: 'feed', hasLinkToken: false })).toBeNull();
    expect(homeRedirect({ isLogin: true, logoutRedirect: 'login', hasLinkToken: false })).toBeNull();
  });

  it('spends a sign-in link before redirecting', () => {
    expect(homeRedirect({ isLogin: false, logoutRedirect: 'login', hasLinkToken: true })).toBeNull();
  });

  it('guards protected pages', () => {
    expect(guardRedirect(false)).toBe('/');
    expect(guardRedirect(false, '/login')).toBe('/login');
    expect(guardRedirect(true, '/login')).toBeNull();
  });
});

describe('sign-in links and Google', () => {
  it('lands on /?page=all, or back on the page where Google sign-in started', () => {
    expect(linkSignInDestination(null, origin)).toBe(AFTER_LINK_SIGN_IN);
    expect(AFTER_LINK_SIGN_IN).toBe('/?page=all');
    expect(linkSignInDestination(`${origin}/login`, origin)).toBe('/?page=all');
    expect(linkSignInDestination(`${origin}/`, origin)).toBe('/?page=all');
    expect(linkSignInDestination(`${origin}/post/abc?a=like`, origin)).toBe('/post/abc?a=like');
    expect(linkSignInDestination('https://evil.example/post/abc', origin)).toBe('/?page=all');
    expect(linkSignInDestination('not a url', origin)).toBe('/?page=all');
  });

  it('builds the Google redirect back to / of this site', () => {
    expect(googleSignInUrl(origin)).toBe('/auth/google?redirectUrl=https%3A%2F%2Fnudge.example%2F');
  });

  it('takes the Google failure out of the URL', () => {
    expect(takeGoogleSignInError(`${origin}/?error=google_signin_failed&page=all`)).toEqual({
      failed: true,
      cleanUrl: `${origin}/?page=all`,
    });
    expect(takeGoogleSignInError(`${origin}/login`)).toEqual({ failed: false, cleanUrl: `${origin}/login` });
  });
});

describe('emailProblem', () => {
  it('requires an e-mail', () => {
    expect(emailProblem('')).toBe('Please enter your email');
    expect(emailProblem('   ')).toBe('Please enter your email');
  });

  it('requires the e-mail format', () => {
    expect(emailProblem('reader')).toBe('Please enter a valid email');
    expect(emailProblem('reader@example')).toBe('Please enter a valid email');
    expect(emailProblem(' reader@example.com ')).toBeNull();
  });
});
