import { describe, expect, it } from 'vitest';
import { SIGN_IN_REQUIRED, showsManagement, signedInAccess, upgradeAccess } from './access';

describe('upgrade page access', () => {
  it('sends everyone home while the subscription setting is off', () => {
    expect(upgradeAccess({ subscriptionOn: false, isLogin: true })).toEqual({ kind: 'redirect', to: '/' });
    expect(upgradeAccess({ subscriptionOn: false, isLogin: false })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('sends signed-out visitors to /login with a toast', () => {
    expect(upgradeAccess({ subscriptionOn: true, isLogin: false })).toEqual({
      kind: 'redirect',
      to: '/login',
      toast: SIGN_IN_REQUIRED,
    });
  });

  it('lets signed-in readers in', () => {
    expect(upgradeAccess({ subscriptionOn: true, isLogin: true })).toEqual({ kind: 'allow' });
    expect(signedInAccess(true)).toEqual({ kind: 'allow' });
  });
});

describe('management', () => {
  it('is for role premium only', () => {
    expect(showsManagement('premium')).toBe(true);
    expect(showsManagement('user')).toBe(false);
    expect(showsManagement('admin')).toBe(false);
    expect(showsManagement(undefined)).toBe(false);
  });
});
