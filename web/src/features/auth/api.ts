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

/** POST /api/user/logout ends the session on the server (every session of the user; issue 14). */
export const endSession = (token: string) =>
  apiRequest<unknown>('POST', '/api/user/logout', { body: { token } });

/** GET /auth/logout clears the Google sign-in cookie; its answer is not used. */
export const logOut = () => apiRequest<unknown>('GET', '/auth/logout', { withCredentials: true });
