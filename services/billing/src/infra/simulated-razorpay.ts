import type { DocumentStore } from '@nudge/platform';
import { addMonths, PREMIUM_PLAN } from '../domain/plan';
import {
  type CreateSubscriptionInput,
  type PaymentProvider,
  ProviderError,
  type ProviderRefund,
} from './payment-provider';
import {
  epoch,
  type PaymentEntity,
  paymentEntity,
  razorpayId,
  type SubscriptionEntity,
  subscriptionEntity,
  type WebhookEvent,
  webhookEvent,
} from './razorpay-webhooks';

type SimSubscription = SubscriptionEntity & { _id: string; cancel_at_cycle_end: boolean };
type SimPayment = PaymentEntity & { _id: string };
type SimRefund = ProviderRefund & { _id: string; idempotency_key: string | null; created_at: number };

/** The simulated Razorpay's refunds (a test marks one failed here, as Razorpay reports a refund that failed). */
export const SIMULATED_REFUNDS = 'simulated_razorpay_refunds';

export const SIMULATED_KEY_ID = 'rzp_test_simulated';
export const SIMULATED_PLAN_ID = 'plan_simulated_yearly';

export interface SimulatedRazorpay extends PaymentProvider {
  /** The subscription as the checkout page shows it, or null. */
  find(id: string): Promise<SubscriptionEntity | null>;
  /**
   * The customer pays (or the payment fails) on the checkout page: the webhooks Razorpay would send, in order.
   * Null when there is nothing to pay (unknown, or no longer awaiting authorisation).
   */
  complete(id: string, outcome: 'pay' | 'fail'): Promise<WebhookEvent[] | null>;
  /**
   * Razorpay's own schedule for the given subscriptions: the charges falling due by `now` and the cancellations at
   * cycle end, as the webhooks it would send. Each happens once (the next charge moves a year on).
   */
  runDue(ids: string[], now: Date): Promise<WebhookEvent[]>;
  /** When Razorpay's schedule next does something to one of these subscriptions (ISO), or null. */
  nextDue(ids: string[]): Promise<string | null>;
}

/**
 * The embedded topology's stand-in for Razorpay: subscriptions, payments and refunds kept in billing's own store
 * (collections simulated_razorpay_*), moving through Razorpay's states and producing Razorpay's webhook payloads.
 */
export function createSimulatedRazorpay(opts: {
  store: DocumentStore;
  clock?: () => Date;
  amount?: number;
}): SimulatedRazorpay {
  const clock = opts.clock ?? (() => new Date());
  const amount = opts.amount ?? PREMIUM_PLAN.amount;
  const subscriptions = opts.store.collection<SimSubscription>('simulated_razorpay_subscriptions');
  const payments = opts.store.collection<SimPayment>('simulated_razorpay_payments');
  const refunds = opts.store.collection<SimRefund>(SIMULATED_REFUNDS);
  const refundEntity = ({ _id: _, idempotency_key: __, ...rest }: SimRefund): ProviderRefund => rest;

  const entity = ({ _id: _, cancel_at_cycle_end: __, ...rest }: SimSubscription): SubscriptionEntity => rest;

  const load = async (id: string): Promise<SimSubscription> => {
    const doc = await subscriptions.findOne({ _id: id });
    if (!doc) throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR');
    return doc;
  };
  const save = async (doc: SimSubscription) => {
    await subscriptions.replaceOne({ _id: doc._id }, doc);
    return entity(doc);
  };
  const newPayment = async (sub: SimSubscription, status: PaymentEntity['status'], at = clock()) => {
    const id = razorpayId('pay');
    const payment = paymentEntity({
      id,
      amount,
      status,
      subscription_id: sub.id,
      customer_id: sub.customer_id,
      created_at: epoch(at),
      ...(status === 'failed'
        ? {
            error_code: 'BAD_REQUEST_ERROR',
            error_description: 'Payment failed (simulated checkout)',
            error_source: 'customer',
            error_step: 'payment_authentication',
            error_reason: 'payment_failed',
          }
        : {}),
    });
    await payments.insertOne({ ...payment, _id: id });
    return payment;
  };

  /** One charge at `at`: the next term starts where the last ended (or now, the first time). */
  const charge = async (sub: SimSubscription, at: Date): Promise<WebhookEvent[]> => {
    const wasActive = sub.status === 'active';
    const start = sub.charge_at && sub.status !== 'created' ? new Date(sub.charge_at * 1000) : at;
    sub.current_start = epoch(start);
    sub.current_end = epoch(addMonths(start, PREMIUM_PLAN.months));
    sub.paid_count += 1;
    sub.status = 'active';
    sub.charge_at = sub.current_end;
    sub.end_at = epoch(addMonths(start, PREMIUM_PLAN.months * (sub.total_count - sub.paid_count + 1)));
    const payment = await newPayment(sub, 'captured', at);
    const events: WebhookEvent[] = [];
    const now = at;
    if (!wasActive)
      events.push(webhookEvent('subscription.activated', { subscription: entity(sub), payment }, now));
    events.push(webhookEvent('subscription.charged', { subscription: entity(sub), payment }, now));
    if (sub.paid_count >= sub.total_count) {
      sub.status = 'completed';
      sub.charge_at = null;
      sub.ended_at = sub.current_end;
      events.push(webhookEvent('subscription.completed', { subscription: entity(sub) }, now));
    }
    await save(sub);
    return events;
  };

  return {
    kind: 'simulated',
    async createSubscription(input: CreateSubscriptionInput) {
      const id = razorpayId('sub');
      const doc: SimSubscription = {
        ...subscriptionEntity({
          id,
          plan_id: input.planId,
          total_count: input.totalCount,
          notes: input.notes,
          start_at: input.startAt ? epoch(input.startAt) : null,
          charge_at: input.startAt ? epoch(input.startAt) : null,
          created_at: epoch(clock()),
          short_url: null,
        }),
        _id: id,
        cancel_at_cycle_end: false,
      };
      await subscriptions.insertOne(doc);
      return entity(doc);
    },
    fetchSubscription: async (id) => entity(await load(id)),
    async cancelSubscription(id, { atCycleEnd }) {
      const sub = await load(id);
      if (['cancelled', 'completed', 'expired'].includes(sub.status)) {
        throw new ProviderError(
          `Subscription is not cancellable in ${sub.status} status.`,
          400,
          'BAD_REQUEST_ERROR',
        );
      }
      if (atCycleEnd && sub.status === 'active') {
        sub.cancel_at_cycle_end = true;
      } else {
        sub.status = 'cancelled';
        sub.ended_at = epoch(clock());
        sub.charge_at = null;
      }
      return save(sub);
    },
    async pauseSubscription(id) {
      const sub = await load(id);
      if (sub.status !== 'active') throw new ProviderError('Only active subscriptions can be paused', 400);
      sub.status = 'paused';
      return save(sub);
    },
    async resumeSubscription(id) {
      const sub = await load(id);
      if (sub.status !== 'paused') throw new ProviderError('Only paused subscriptions can be resumed', 400);
      sub.status = 'active';
      return save(sub);
    },
    async refundPayment(paymentId, refund, options = {}): Promise<ProviderRefund> {
      if (options.idempotencyKey) {
        // Razorpay's X-Refund-Idempotency: the same request again returns the first refund; another one is refused.
        const first = await refunds.findOne({ idempotency_key: options.idempotencyKey });
        if (first) {
          if (first.payment_id !== paymentId || first.amount !== refund)
            throw new ProviderError(
              'Different request with the same idempotency key has already been processed.',
              400,
              'BAD_REQUEST_ERROR',
            );
          return refundEntity(first);
        }
      }
      const payment = await payments.findOne({ _id: paymentId });
      if (!payment || payment.status === 'failed') {
        throw new ProviderError('The id provided does not exist', 400, 'BAD_REQUEST_ERROR');
      }
      if (refund <= 0 || refund > payment.amount - payment.amount_refunded) {
        throw new ProviderError('The refund amount provided is greater than amount captured', 400);
      }
      const refunded = payment.amount_refunded + refund;
      await payments.updateOne(
        { _id: paymentId },
        {
          $set: {
            amount_refunded: refunded,
            refund_status: refunded === payment.amount ? 'full' : 'partial',
            status: refunded === payment.amount ? 'refunded' : payment.status,
          },
        },
      );
      const id = razorpayId('rfnd');
      const doc: SimRefund = {
        _id: id,
        id,
        amount: refund,
        payment_id: paymentId,
        status: 'processed',
        receipt: options.receipt ?? null,
        notes: options.receipt ? { refund_receipt: options.receipt } : [],
        idempotency_key: options.idempotencyKey ?? null,
        created_at: epoch(clock()),
      };
      await refunds.insertOne(doc);
      return refundEntity(doc);
    },
    async fetchRefunds(paymentId) {
      const found = await refunds.find({ payment_id: paymentId }, { sort: { created_at: -1 } });
      return found.map(refundEntity);
    },

    async find(id) {
      const doc = await subscriptions.findOne({ _id: id });
      return doc ? entity(doc) : null;
    },

    async complete(id, outcome) {
      const sub = await subscriptions.findOne({ _id: id });
      if (sub?.status !== 'created') return null;
      const now = clock();
      if (outcome === 'fail') {
        sub.auth_attempts += 1;
        await save(sub);
        const payment = await newPayment(sub, 'failed');
        return [webhookEvent('payment.failed', { payment }, now)];
      }
      sub.customer_id ??= razorpayId('cust');
      sub.status = 'authenticated';
      if (sub.start_at && sub.start_at > epoch(now)) {
        // A later start: checkout authorises the mandate now; the first charge happens at start_at.
        await save(sub);
        return [webhookEvent('subscription.authenticated', { subscription: entity(sub) }, now)];
      }
      const authenticated = webhookEvent('subscription.authenticated', { subscription: entity(sub) }, now);
      return [authenticated, ...(await charge(sub, now))];
    },

    async runDue(ids, now) {
      const due = await subscriptions.find(
        { _id: { $in: ids }, status: { $in: SCHEDULED }, charge_at: { $lte: epoch(now) } },
        { sort: { charge_at: 1 } },
      );
      const events: WebhookEvent[] = [];
      for (const sub of due) {
        if (sub.cancel_at_cycle_end) {
          sub.status = 'cancelled';
          sub.ended_at = sub.current_end;
          sub.charge_at = null;
          await save(sub);
          events.push(webhookEvent('subscription.cancelled', { subscription: entity(sub) }, now));
        } else {
          events.push(...(await charge(sub, now)));
        }
      }
      return events;
    },

    async nextDue(ids) {
      const [next] = await subscriptions.find(
        { _id: { $in: ids }, status: { $in: SCHEDULED }, charge_at: { $ne: null } },
        { sort: { charge_at: 1 }, limit: 1 },
      );
      return next?.charge_at ? new Date(next.charge_at * 1000).toISOString() : null;
    },
  };
}

/** The statuses in which Razorpay's schedule charges a subscription (or cancels it at cycle end). */
const SCHEDULED = ['active', 'authenticated'];
