/**
 * Who may open /upgrade and /bilinghistory. reader.md §6 leaves the guard rule open ("not shown"); our choice:
 * signed-out visitors go to /login with a toast (SIGN_IN_REQUIRED). /upgrade also sends everyone home while the
 * subscription setting is off (reader.md §2), checked first.
 */
export const SIGN_IN_REQUIRED = 'Please sign in to manage your subscription.';

export type PageAccess = { kind: 'allow' } | { kind: 'redirect'; to: string; toast?: string };

export function upgradeAccess(input: { subscriptionOn: boolean; isLogin: boolean }): PageAccess {
  if (!input.subscriptionOn) return { kind: 'redirect', to: '/' };
  return signedInAccess(input.isLogin);
}

export const signedInAccess = (isLogin: boolean): PageAccess =>
  isLogin ? { kind: 'allow' } : { kind: 'redirect', to: '/login', toast: SIGN_IN_REQUIRED };

/** reader.md §6: only role premium sees subscription management; users and admins see the purchase card. */
export const showsManagement = (role: string | undefined): boolean => role === 'premium';
