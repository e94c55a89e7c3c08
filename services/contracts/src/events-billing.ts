import { z } from 'zod';

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
} as const;

export type BillingEventName = keyof typeof BillingEvents;
export type BillingEventData<K extends BillingEventName> = z.infer<(typeof BillingEvents)[K]['data']>;
