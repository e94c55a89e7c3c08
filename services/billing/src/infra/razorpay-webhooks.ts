import { randomBytes } from 'node:crypto';
import { hmacHex } from './signatures';

/**
 * Razorpay-shaped webhook deliveries (https://razorpay.com/docs/webhooks/subscriptions): the event envelope with
 * the subscription and payment entities, the raw JSON body, its HMAC-SHA256 signature (x-razorpay-signature) and
 * the event id (x-razorpay-event-id). The simulated Razorpay and the tests both build their webhooks here.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id the way Razorpay writes them: a prefix and 14 letters or digits, e.g. sub_00000000000001. */
export function razorpayId(prefix: string): string {
  const bytes = randomBytes(14);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

export interface SubscriptionEntity {
  id: string;
  entity: 'subscription';
  plan_id: string;
  customer_id: string | null;
  status: string;
  current_start: number | null;
  current_end: number | null;
  ended_at: number | null;
  quantity: number;
  notes: Record<string, string> | [];
  charge_at: number | null;
  start_at: number | null;
  end_at: number | null;
  auth_attempts: number;
  total_count: number;
  paid_count: number;
  customer_notify: boolean;
  created_at: number;
  expire_by: number | null;
  short_url: string | null;
  has_scheduled_changes: boolean;
  change_scheduled_at: number | null;
  source: string;
  payment_method: string | null;
  offer_id: string | null;
  remaining_count: number;
}

export interface PaymentEntity {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'captured' | 'authorized' | 'failed' | 'refunded';
  order_id: string | null;
  invoice_id: string | null;
  subscription_id?: string;
  international: boolean;
  method: string;
  amount_refunded: number;
  refund_status: string | null;
  captured: boolean;
  description: string | null;
  card_id: string | null;
  bank: string | null;
  wallet: string | null;
  vpa: string | null;
  email: string | null;
  contact: string | null;
  customer_id: string | null;
  token_id: string | null;
  notes: Record<string, string> | [];
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  created_at: number;
}

/** A subscription entity with Razorpay's defaults, overridden by `fields`. */
export function subscriptionEntity(
  fields: Partial<SubscriptionEntity> & Pick<SubscriptionEntity, 'id'>,
): SubscriptionEntity {
  const base: SubscriptionEntity = {
    id: fields.id,
    entity: 'subscription',
    plan_id: 'plan_00000000000001',
    customer_id: null,
    status: 'created',
    current_start: null,
    current_end: null,
    ended_at: null,
    quantity: 1,
    notes: [],
    charge_at: null,
    start_at: null,
    end_at: null,
    auth_attempts: 0,
    total_count: 10,
    paid_count: 0,
    customer_notify: true,
    created_at: epoch(new Date()),
    expire_by: null,
    short_url: null,
    has_scheduled_changes: false,
    change_scheduled_at: null,
    source: 'api',
    payment_method: 'card',
    offer_id: null,
    remaining_count: 10,
  };
  const merged = { ...base, ...fields };
  return { ...merged, remaining_count: Math.max(0, merged.total_count - merged.paid_count) };
}

/** A card payment entity (captured unless said otherwise). */
export function paymentEntity(
  fields: Partial<PaymentEntity> & Pick<PaymentEntity, 'id' | 'amount'>,
): PaymentEntity {
  const failed = fields.status === 'failed';
  return {
    entity: 'payment',
    currency: 'INR',
    status: 'captured',
    order_id: null,
    invoice_id: null,
    international: false,
    method: 'card',
    amount_refunded: 0,
    refund_status: null,
    captured: !failed,
    description: 'Premium: 1 Year plan',
    card_id: null,
    bank: null,
    wallet: null,
    vpa: null,
    email: null,
    contact: null,
    customer_id: null,
    token_id: null,
    notes: [],
    fee: failed ? null : 0,
    tax: failed ? null : 0,
    error_code: null,
    error_description: null,
    error_source: null,
    error_step: null,
    error_reason: null,
    created_at: epoch(new Date()),
    ...fields,
  };
}

export interface WebhookEvent {
  entity: 'event';
  account_id: string;
  event: string;
  contains: string[];
  payload: {
    subscription?: { entity: SubscriptionEntity };
    payment?: { entity: PaymentEntity };
  };
  created_at: number;
}

export function webhookEvent(
  event: string,
  entities: { subscription?: SubscriptionEntity; payment?: PaymentEntity },
  createdAt: Date,
): WebhookEvent {
  const payload: WebhookEvent['payload'] = {};
  if (entities.subscription) payload.subscription = { entity: entities.subscription };
  if (entities.payment) payload.payment = { entity: entities.payment };
  return {
    entity: 'event',
    account_id: 'acc_00000000000001',
    event,
    contains: Object.keys(payload),
    payload,
    created_at: epoch(createdAt),
  };
}

export interface SignedDelivery {
  raw: string;
  signature: string;
  eventId: string;
}

/** The body exactly as sent, signed with the webhook secret, with a fresh event id unless one is given. */
export function signDelivery(event: WebhookEvent, webhookSecret: string, eventId?: string): SignedDelivery {
  const raw = JSON.stringify(event);
  return { raw, signature: hmacHex(raw, webhookSecret), eventId: eventId ?? razorpayId('evt') };
}

export const deliveryHeaders = (delivery: SignedDelivery): Record<string, string> => ({
  'content-type': 'application/json',
  'x-razorpay-signature': delivery.signature,
  'x-razorpay-event-id': delivery.eventId,
});
