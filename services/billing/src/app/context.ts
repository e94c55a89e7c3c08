import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from '@nudge/platform';
import type { PaymentProvider } from '../infra/payment-provider';
import type { Refunds } from './refunds';
import type { SubscriptionRepository } from './subscription-repository';

/** What the billing use cases share. */
export interface BillingContext {
  repo: SubscriptionRepository;
  provider: PaymentProvider;
  /** Refunds through the store's refund ledger: at most one per payment across every instance. */
  refunds: Refunds;
  /** Razorpay key id handed to checkout.js. */
  keyId: string;
  planId: string;
  /** The embedded topology's simulated checkout page (its URL for a subscription) instead of Razorpay's script. */
  simulatedCheckoutUrl?: (subscriptionId: string) => string;
  clock: () => Date;
  log: Logger;
  /** The reader's IANA time zone, for the dates in messages. */
  timeZoneOf(userId: string): Promise<string | undefined>;
}

/**
 * The credential of a simulated checkout: an HMAC of the subscription id, handed only to the reader who opened the
 * checkout (in its URL), so knowing a subscription id (it shows in histories and the admin's transactions) is not
 * enough to complete someone else's checkout.
 */
export const simulatedCheckoutToken = (subscriptionId: string, secret: string) =>
  createHmac('sha256', secret).update(`simulated-checkout:${subscriptionId}`).digest('base64url');

export const isSimulatedCheckoutToken = (subscriptionId: string, secret: string, given: unknown) => {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(simulatedCheckoutToken(subscriptionId, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

export const simulatedCheckoutUrl = (subscriptionId: string, secret: string) =>
  `/api/payment/simulated/${encodeURIComponent(subscriptionId)}?t=${simulatedCheckoutToken(subscriptionId, secret)}`;
