import type { AuthResponse, IsAuthResponse, SessionResponse } from '../../shared/contracts';
import { apiRequest } from '../../shared/http';

export const requestSignInCode = (email: string) =>
  apiRequest<AuthResponse>('POST', '/api/user/auth', { body: { email } });

export const verifySignInCode = (email: string, otp: string, timeZone: string | undefined) =>
  apiRequest<SessionResponse>('POST', '/api/user/verify', { body: { email, otp, timeZone } });

export const checkToken = (token: string) =>
  apiRequest<IsAuthResponse>('POST', '/api/user/isauth', { body: { token } });

export const signInWithLinkToken = (uid: string) =>
  apiRequest<SessionResponse>('POST', `/api/user/signinbytoken/${encodeURIComponent(uid)}`);

/**
 * GET /auth/logout (reader.md §7, with credentials): with the stored token as `Authorization: Bearer` it ends the
 * session on the server (every session of the user) and clears the Google sign-in cookie; its answer is not used.
 */
export const logOut = (token: string | null) =>
  apiRequest<unknown>('GET', '/auth/logout', { withCredentials: true, token });
