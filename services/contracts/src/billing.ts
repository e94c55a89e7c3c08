import { z } from 'zod';
import { User } from './auth';
import {
  DAY_RANGE_ORDER,
  DayRangeQuery,
  dayRangeInOrder,
  LimitQuery,
  PageQuery,
  SortOrderQuery,
} from './common';
import type { RouteSchemas } from './route-types';

const Token = z.string().optional().describe('Session token (or send Authorization: Bearer)');

/** The one plan (reader.md §2, §9): checkout is INR; the web's currency toggle also shows USD 30. */
export const PREMIUM_PLAN = {
  name: '1 Year plan',
  months: 12,
  amount: 250000,
  currency: 'INR',
  usdAmount: 3000,
} as const;

export const BillingStatus = z.enum([
  'created',
  'authenticated',
  'active',
  'pending',
  'halted',
  'cancelled',
  'completed',
  'paused',
  'expired',
]);
export type BillingStatus = z.infer<typeof BillingStatus>;

export const PaymentTokenRequest = z.object({ token: Token });

/**
 * What /upgrade shows (web/src/features/subscription/renewal.ts): auto-renewal is Active when `status` is active or
 * completed, so a subscription whose renewal is turned off reports `cancelled` while its term still runs.
 */
export const SubscriptionDetailsView = z.object({
  subscriptionId: z.string(),
  status: BillingStatus,
  startAt: z.string().nullable(),
  endAt: z.string().nullable(),
  renewal: z.enum(['Active', 'Disabled']),
  cancelAtCycleEnd: z.boolean(),
  /** A restart's new subscription (it starts at endAt), once there is one. */
  nextSubscriptionId: z.string().nullable(),
  plan: z.object({ name: z.string(), months: z.number(), amount: z.number(), currency: z.string() }),
});
export type SubscriptionDetailsView = z.infer<typeof SubscriptionDetailsView>;

export const PaymentDetailsResponse = z.object({
  status: z.literal(true),
  details: SubscriptionDetailsView.nullable(),
});
export const PaymentChangeResponse = PaymentDetailsResponse.extend({ message: z.string() });

/** Razorpay checkout's options: the key id and the subscription to authorise. */
export const CheckoutSubscription = z.object({ key: z.string(), subscriptionId: z.string() });

export const PaymentCheckoutResponse = z.object({
  status: z.literal(true),
  subscription: CheckoutSubscription,
  user: User.optional(),
  /** Embedded topology only: the simulated checkout page to open instead of Razorpay's script. */
  checkoutUrl: z.string().optional(),
});

/** A restart whose new subscription still needs the customer's authorisation carries a checkout to open. */
export const PaymentRestartResponse = PaymentChangeResponse.extend({
  subscription: CheckoutSubscription.optional(),
  checkoutUrl: z.string().optional(),
});

const RazorpayId = (prefix: string, label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]{1,40}$`), `${label} is not valid`);

export const PaymentConfirmRequest = z.object({
  token: Token,
  razorpay_payment_id: RazorpayId('pay', 'razorpay_payment_id'),
  razorpay_subscription_id: RazorpayId('sub', 'razorpay_subscription_id'),
  razorpay_signature: z
    .string({ error: 'razorpay_signature is required' })
    .trim()
    .regex(/^[0-9a-f]{64}$/i, 'razorpay_signature is not valid'),
});
export const PaymentConfirmResponse = PaymentDetailsResponse.extend({ message: z.string() });

/** reader.md §3: start, end, amount in minor units; a refund is a line of its own with a negative amount. */
export const PaymentHistoryEntry = z.object({
  start: z.string().nullable(),
  end: z.string().nullable(),
  amount: z.number(),
  kind: z.enum(['payment', 'refund']),
  paymentId: z.string(),
  subscriptionId: z.string(),
});
export const PaymentHistoryResponse = z.object({
  status: z.literal(true),
  history: z.array(PaymentHistoryEntry),
});

/** admin.md §7's page and e-mail filter, and the table's optional status and creation-day filters and order. */
export const TransactionsQuery = z
  .object({
    page: PageQuery,
    limit: LimitQuery(100, 10),
    email: z.string().trim().max(254).optional(),
    status: BillingStatus.optional(),
    ...DayRangeQuery,
    sort: z.enum(['createdAt'], { error: 'sort must be createdAt' }).optional(),
    order: SortOrderQuery,
  })
  .refine(dayRangeInOrder, DAY_RANGE_ORDER);

/** admin.md §3 Transaction / subscription; amount: what was paid on it, net of refunds, in paise. */
export const TransactionRow = z.object({
  _id: z.string(),
  email: z.string(),
  userId: z.string(),
  subscriptionId: z.string(),
  status: BillingStatus,
  startAt: z.string().nullable(),
  endAt: z.string().nullable(),
  createdAt: z.string(),
  amount: z.number(),
});
export const TransactionsResponse = z.object({
  status: z.literal(true),
  total: z.number(),
  data: z.array(TransactionRow),
});

export const SimulatedCheckoutParams = z.object({ subscriptionId: RazorpayId('sub', 'subscriptionId') });
export const SimulatedCheckoutOutcome = z.object({
  outcome: z.enum(['pay', 'fail'], { error: "outcome must be 'pay' or 'fail'" }),
});

// ── the Razorpay webhook (https://razorpay.com/docs/webhooks/subscriptions) ──

const Epoch = z.number().int().nonnegative();
const Notes = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();

export const RazorpaySubscriptionEntity = z
  .object({
    id: z.string().min(1),
    status: z.string().min(1),
    plan_id: z.string().optional(),
    current_start: Epoch.nullable().optional(),
    current_end: Epoch.nullable().optional(),
    ended_at: Epoch.nullable().optional(),
    charge_at: Epoch.nullable().optional(),
    start_at: Epoch.nullable().optional(),
    paid_count: z.number().int().nonnegative().default(0),
    total_count: z.number().int().nonnegative().optional(),
    notes: Notes,
  })
  .loose();

export const RazorpayPaymentEntity = z
  .object({
    id: z.string().min(1),
    amount: z.number().int().nonnegative(),
    currency: z.string().default('INR'),
    status: z.string(),
    created_at: Epoch,
    subscription_id: z.string().nullable().optional(),
    invoice_id: z.string().nullable().optional(),
    error_code: z.string().nullable().optional(),
    error_description: z.string().nullable().optional(),
    notes: Notes,
  })
  .loose();

export const RazorpayWebhook = z
  .object({
    entity: z.literal('event'),
    event: z.string().min(1),
    contains: z.array(z.string()).default([]),
    payload: z
      .object({
        subscription: z.object({ entity: RazorpaySubscriptionEntity }).optional(),
        payment: z.object({ entity: RazorpayPaymentEntity }).optional(),
      })
      .loose(),
    created_at: Epoch,
  })
  .loose();
export type RazorpayWebhook = z.infer<typeof RazorpayWebhook>;

export const PaymentWebhookAck = z.object({
  status: z.literal(true),
  duplicate: z.boolean().optional(),
  ignored: z.boolean().optional(),
});

/** POST /internal/refunds/reconcile (the periodic job): what the run settled, by payment id. */
export const RefundReconcileRequest = z.object({}).strict();
export const RefundReconcileResponse = z.object({
  status: z.literal(true),
  refunded: z.array(z.string()),
  failed: z.array(z.string()),
  pending: z.array(z.string()),
  retried: z.array(z.string()),
});
export type RefundReconcileResult = z.infer<typeof RefundReconcileResponse>;

/** Request and response schemas of the billing service's /api routes (checkout, webhook, subscription, payments, transactions). */
export const BILLING_SCHEMAS: RouteSchemas = {
  'POST /api/payment/checkout': { body: PaymentTokenRequest, response: PaymentCheckoutResponse },
  'POST /api/payment/details': { body: PaymentTokenRequest, response: PaymentDetailsResponse },
  'POST /api/payment/cancel': { body: PaymentTokenRequest, response: PaymentChangeResponse },
  'POST /api/payment/restart': { body: PaymentTokenRequest, response: PaymentRestartResponse },
  'POST /api/payment/history': { body: PaymentTokenRequest, response: PaymentHistoryResponse },
  'POST /api/payment/confirm': { body: PaymentConfirmRequest, response: PaymentConfirmResponse },
  'GET /api/payment/simulated/:subscriptionId': { params: SimulatedCheckoutParams, produces: 'text/html' },
  'POST /api/payment/simulated/:subscriptionId': {
    params: SimulatedCheckoutParams,
    body: SimulatedCheckoutOutcome,
  },
  'POST /api/payment/verification': { body: RazorpayWebhook, response: PaymentWebhookAck },
  'POST /api/payment/alldata': {
    query: TransactionsQuery,
    body: PaymentTokenRequest,
    response: TransactionsResponse,
  },
};
