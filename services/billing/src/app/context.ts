import type { Logger } from '@nudge/platform';
import type { PaymentProvider } from '../infra/payment-provider';
import type { SubscriptionRepository } from './subscription-repository';

/** What the billing use cases share. */
export interface BillingContext {
  repo: SubscriptionRepository;
  provider: PaymentProvider;
  /** Razorpay key id handed to checkout.js. */
  keyId: string;
  planId: string;
  /** The embedded topology's simulated checkout page instead of Razorpay's script. */
  simulatedCheckout: boolean;
  clock: () => Date;
  log: Logger;
  /** The reader's IANA time zone, for the dates in messages. */
  timeZoneOf(userId: string): Promise<string | undefined>;
}

export const simulatedCheckoutUrl = (subscriptionId: string) =>
  `/api/payment/simulated/${encodeURIComponent(subscriptionId)}`;
