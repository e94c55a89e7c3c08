import type { User } from '../../shared/contracts';
import { safeUrl } from '../../shared/safeUrl';
import type { CheckoutResponse } from './types';

export const RAZORPAY_SCRIPT_URL = 'https://checkout.razorpay.com/v1/checkout.js';
export const PAYMENT_SUCCESS_PATH = '/payment-success';
export const PAYMENT_FAILED_PATH = '/payment-failed';

export type CheckoutTarget =
  | { kind: 'redirect'; url: string }
  | { kind: 'razorpay'; key: string; subscriptionId: string }
  | { kind: 'invalid' };

const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Where a successful checkout call leads. With `checkoutUrl` (our addition: the embedded topology's simulated
 * checkout page) the browser goes there, if it is a same-site path or an http(s) URL; otherwise Razorpay's checkout
 * opens with key and subscriptionId. Anything else cannot be opened.
 */
export function checkoutTarget(response: CheckoutResponse): CheckoutTarget {
  if (response.checkoutUrl !== undefined && response.checkoutUrl !== null) {
    const url = safeUrl(String(response.checkoutUrl));
    return url ? { kind: 'redirect', url } : { kind: 'invalid' };
  }
  const key = response.subscription?.key;
  const subscriptionId = response.subscription?.subscriptionId;
  if (filled(key) && filled(subscriptionId)) return { kind: 'razorpay', key, subscriptionId };
  return { kind: 'invalid' };
}

/** How the provider's checkout ended: paid (its handler ran), dismissed (closed) or failed (payment.failed). */
export type CheckoutOutcome = 'paid' | 'dismissed' | 'failed';

/** Verification is the provider's server-side callback, so a paid checkout only leads to the success page. */
export const checkoutDestination = (outcome: CheckoutOutcome): string =>
  outcome === 'paid' ? PAYMENT_SUCCESS_PATH : PAYMENT_FAILED_PATH;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** reader.md §4: a refused checkout can return the user; the record is then updated. */
export function refusedCheckoutUser(body: unknown): User | null {
  if (!isRecord(body) || !isRecord(body.user)) return null;
  const user = body.user;
  return filled(user._id) && typeof user.email === 'string' && typeof user.role === 'string'
    ? (user as unknown as User)
    : null;
}

/**
 * After a payment (or a refunded cancel) the role changes when billing's event reaches auth, which may be after the
 * page has the answer: the token is checked again (POST /api/user/isauth) until the role is the awaited one
 * ('premium' after a payment, 'user' after a refund), at most this many times, this far apart.
 */
export const ROLE_RECHECK_ATTEMPTS = 4;
export const ROLE_RECHECK_INTERVAL_MS = 3000;

export const needsRoleRecheck = (
  role: string | undefined,
  attemptsDone: number,
  awaited: 'premium' | 'user' = 'premium',
): boolean => attemptsDone < ROLE_RECHECK_ATTEMPTS && role === (awaited === 'premium' ? 'user' : 'premium');
