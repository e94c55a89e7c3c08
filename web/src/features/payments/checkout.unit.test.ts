import { describe, expect, it } from 'vitest';
import {
  checkoutDestination,
  checkoutTarget,
  needsRoleRecheck,
  RAZORPAY_SCRIPT_URL,
  ROLE_RECHECK_ATTEMPTS,
  refusedCheckoutUser,
} from './checkout';

const subscription = { key: 'rzp_test_1', subscriptionId: 'sub_1' };

describe('checkout target', () => {
  it('opens Razorpay with key and subscription id', () => {
    expect(checkoutTarget({ status: true, subscription })).toEqual({
      kind: 'razorpay',
      key: 'rzp_test_1',
      subscriptionId: 'sub_1',
    });
    expect(RAZORPAY_SCRIPT_URL).toBe('https://checkout.razorpay.com/v1/checkout.js');
  });

  it('goes to checkoutUrl instead when the answer carries one', () => {
    expect(checkoutTarget({ status: true, subscription, checkoutUrl: '/billing/checkout/sub_1' })).toEqual({
      kind: 'redirect',
      url: '/billing/checkout/sub_1',
    });
    expect(checkoutTarget({ status: true, checkoutUrl: 'https://pay.example.com/c/1' })).toEqual({
      kind: 'redirect',
      url: 'https://pay.example.com/c/1',
    });
  });

  it('refuses unsafe addresses and missing ids', () => {
    expect(checkoutTarget({ status: true, subscription, checkoutUrl: 'javascript:alert(1)' })).toEqual({
      kind: 'invalid',
    });
    expect(checkoutTarget({ status: true, checkoutUrl: '//evil.example' })).toEqual({ kind: 'invalid' });
    expect(checkoutTarget({ status: true, subscription: { key: 'k', subscriptionId: '' } })).toEqual({
      kind: 'invalid',
    });
    expect(checkoutTarget({ status: true })).toEqual({ kind: 'invalid' });
  });
});

describe('checkout outcome', () => {
  it('leads to the success page only when paid', () => {
    expect(checkoutDestination('paid')).toBe('/payment-success');
    expect(checkoutDestination('dismissed')).toBe('/payment-failed');
    expect(checkoutDestination('failed')).toBe('/payment-failed');
  });
});

describe('refused checkout', () => {
  it('returns the user when the refusal carries one', () => {
    const user = { _id: 'u1', email: 'a@b.co', role: 'premium' };
    expect(refusedCheckoutUser({ status: false, user })).toEqual(user);
    expect(refusedCheckoutUser({ status: false, message: 'No' })).toBeNull();
    expect(refusedCheckoutUser({ status: false, user: { email: 'a@b.co' } })).toBeNull();
    expect(refusedCheckoutUser(null)).toBeNull();
  });
});

describe('role re-check after payment', () => {
  it('repeats while the role is still user, a bounded number of times', () => {
    expect(needsRoleRecheck('user', 0)).toBe(true);
    expect(needsRoleRecheck('user', ROLE_RECHECK_ATTEMPTS - 1)).toBe(true);
    expect(needsRoleRecheck('user', ROLE_RECHECK_ATTEMPTS)).toBe(false);
    expect(needsRoleRecheck('premium', 0)).toBe(false);
    expect(needsRoleRecheck('admin', 0)).toBe(false);
    expect(needsRoleRecheck(undefined, 0)).toBe(false);
    // After a refunded cancel the awaited role is 'user'.
    expect(needsRoleRecheck('premium', 0, 'user')).toBe(true);
    expect(needsRoleRecheck('premium', ROLE_RECHECK_ATTEMPTS, 'user')).toBe(false);
    expect(needsRoleRecheck('user', 0, 'user')).toBe(false);
  });
});
