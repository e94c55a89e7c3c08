import { z } from 'zod';
import { BillingStatus } from './billing';

/**
 * Events of the billing service, on topic nudge.billing.events; stream `subscription-<id>`. Auth consumes them:
 * Activated and Renewed make the user premium, Expired (and an immediate Cancelled) make them user again; an
 * admin stays admin. The billing service adds its other events to this object.
 */
export const BillingEvents = {
  SubscriptionActivated: {
    type: 'billing.SubscriptionActivated.v1',
    data: z.object({
      userId: z.string(),
      email: z.string(),
      subscriptionId: z.string(),
      startAt: z.string(),
      endAt: z.string(),
    }),
  },
  SubscriptionRenewed: {
    type: 'billing.SubscriptionRenewed.v1',
    data: z.object({ userId: z.string(), subscriptionId: z.string(), endAt: z.string() }),
  },
  /** immediate: cancelled within the refund window (premium ends now); otherwise renewal is off and premium lasts to endAt. */
  SubscriptionCancelled: {
    type: 'billing.SubscriptionCancelled.v1',
    data: z.object({
      userId: z.string(),
      subscriptionId: z.string(),
      immediate: z.boolean(),
      refunded: z.boolean(),
      endAt: z.string(),
    }),
  },
  SubscriptionExpired: {
    type: 'billing.SubscriptionExpired.v1',
    data: z.object({ userId: z.string(), subscriptionId: z.string(), endAt: z.string() }),
  },

  // ── billing's own events (the subscription aggregate); other services may ignore them ──

  /** Checkout (or a restart) created a subscription at the payment provider; `startAt` set = it starts later. */
  SubscriptionCreated: {
    type: 'billing.SubscriptionCreated.v1',
    data: z.object({
      subscriptionId: z.string(),
      /** Our own record id (the admin transactions list shows it as _id). */
      recordId: z.string(),
      userId: z.string(),
      email: z.string(),
      planId: z.string(),
      /** Per billing cycle, in minor units (paise). */
      amount: z.number(),
      currency: z.string(),
      totalCount: z.number(),
      startAt: z.string().nullable(),
      /** A restart: the subscription whose term this one continues. */
      predecessorId: z.string().nullable(),
    }),
  },
  /** The provider's status of the subscription (from a webhook snapshot), or one we set by an API call. */
  SubscriptionStatusChanged: {
    type: 'billing.SubscriptionStatusChanged.v1',
    data: z.object({
      subscriptionId: z.string(),
      status: BillingStatus,
      /** When the provider says it happened (the webhook's created_at), or our clock for our own calls. */
      at: z.string(),
      /** The provider's paid_count in that snapshot (orders snapshots that share a timestamp). */
      paidCount: z.number(),
      source: z.enum(['webhook', 'api']),
      providerEvent: z.string().nullable(),
    }),
  },
  /** A successful charge (subscription.charged): one per provider payment id. */
  PaymentCaptured: {
    type: 'billing.PaymentCaptured.v1',
    data: z.object({
      subscriptionId: z.string(),
      userId: z.string(),
      paymentId: z.string(),
      amount: z.number(),
      currency: z.string(),
      periodStart: z.string(),
      periodEnd: z.string(),
      paidAt: z.string(),
      paidCount: z.number(),
    }),
  },
  PaymentRefunded: {
    type: 'billing.PaymentRefunded.v1',
    data: z.object({
      subscriptionId: z.string(),
      userId: z.string(),
      paymentId: z.string(),
      refundId: z.string(),
      amount: z.number(),
      refundedAt: z.string(),
    }),
  },
  /** payment.failed: recorded for the trail; the subscription's state follows the subscription.* events. */
  PaymentFailed: {
    type: 'billing.PaymentFailed.v1',
    data: z.object({
      subscriptionId: z.string(),
      paymentId: z.string(),
      amount: z.number(),
      errorCode: z.string().nullable(),
      errorDescription: z.string().nullable(),
      at: z.string(),
    }),
  },
  /**
   * The reader's one live subscription (stream `customer-<userId>`): the subscription whose first charge made it the one
   * that grants premium. A charge of any other (a second checkout paid) while it lives is refunded and that
   * subscription cancelled; a restart's subscription takes over from the one it renews.
   */
  PremiumClaimed: {
    type: 'billing.PremiumClaimed.v1',
    data: z.object({ userId: z.string(), subscriptionId: z.string(), at: z.string() }),
  },
  /** The browser reported Razorpay checkout's handler result with a valid key-secret signature. */
  CheckoutConfirmed: {
    type: 'billing.CheckoutConfirmed.v1',
    data: z.object({ subscriptionId: z.string(), paymentId: z.string(), at: z.string() }),
  },
} as const;

export type BillingEventName = keyof typeof BillingEvents;
export type BillingEventData<K extends BillingEventName> = z.infer<(typeof BillingEvents)[K]['data']>;
