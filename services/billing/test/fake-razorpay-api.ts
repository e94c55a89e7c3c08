import type { Server } from 'node:http';
import { closeServer, listen } from '@nudge/platform';
import express from 'express';
import {
  epoch,
  razorpayId,
  type SubscriptionEntity,
  subscriptionEntity,
} from '../src/infra/razorpay-webhooks';

export interface RecordedCall {
  method: string;
  path: string;
  body: any;
  /** Razorpay's refund idempotency header, when sent. */
  idempotencyKey?: string;
}

export interface FakeRazorpayApi {
  /** Base URL as RAZORPAY_API_URL takes it: http://127.0.0.1:<port>/v1 */
  url: string;
  keyId: string;
  keySecret: string;
  calls: RecordedCall[];
  subscriptions: Map<string, SubscriptionEntity & { cancel_at_cycle_end?: boolean }>;
  refunds: FakeRefund[];
  /** The next n requests answer 500 like an outage. */
  failNext(n?: number): void;
  /** Refunds take this long to answer (ms), as a slow provider would: concurrent callers overlap. */
  delayRefunds(ms: number): void;
  /** Marks a subscription as Razorpay would after its first charge. */
  activate(id: string, start: Date, end: Date): SubscriptionEntity;
  close(): Promise<void>;
}

type FakeRefund = {
  id: string;
  payment_id: string;
  amount: number;
  status: string;
  receipt?: string | null;
  notes?: unknown;
};

const badRequest = (description: string) => ({ error: { code: 'BAD_REQUEST_ERROR', description } });

/**
 * A local HTTP server that answers like the Razorpay API (https://razorpay.com/docs/api/payments/subscriptions):
 * basic auth with the key id and secret, the subscription, cancel, pause/resume and refund endpoints, Razorpay's
 * error shape. The real `razorpay` client talks to it in the adapter and service tests.
 */
export async function startFakeRazorpayApi(
  opts: { keyId?: string; keySecret?: string; clock?: () => Date } = {},
): Promise<FakeRazorpayApi> {
  const keyId = opts.keyId ?? 'rzp_test_fake0000000001';
  const keySecret = opts.keySecret ?? 'fake-key-secret-0123456789';
  const clock = opts.clock ?? (() => new Date());
  const calls: RecordedCall[] = [];
  const subscriptions = new Map<string, SubscriptionEntity & { cancel_at_cycle_end?: boolean }>();
  const refunds: FakeRefund[] = [];
  const byIdempotencyKey = new Map<string, { body: string; refund: FakeRefund }>();
  const refundedByPayment = new Map<string, number>();
  let failures = 0;
  let refundDelayMs = 0;

  const app = express();
  app.use(express.json());
  app.use((req, res, next) => {
    const idempotencyKey = req.header('x-refund-idempotency');
    calls.push({
      method: req.method,
      path: req.path,
      body: req.body,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    const header = req.header('authorization') ?? '';
    const expected = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
    if (header !== expected) {
      res.status(401).json(badRequest('The api key provided is invalid'));
      return;
    }
    if (failures > 0) {
      failures -= 1;
      res.status(500).json({ error: { code: 'SERVER_ERROR', description: 'We are facing some trouble' } });
      return;
    }
    next();
  });

  const find = (id: string, res: express.Response) => {
    const sub = subscriptions.get(id);
    if (!sub) res.status(400).json(badRequest('The id provided does not exist'));
    return sub;
  };
  const publicView = ({
    cancel_at_cycle_end: _,
    ...rest
  }: SubscriptionEntity & { cancel_at_cycle_end?: boolean }) => rest;

  app.post('/v1/subscriptions', (req, res) => {
    const { plan_id, total_count, notes, start_at, quantity, customer_notify } = req.body ?? {};
    if (typeof plan_id !== 'string' || !plan_id.startsWith('plan_')) {
      res.status(400).json(badRequest('The plan id provided does not exist'));
      return;
    }
    if (!Number.isInteger(total_count) || total_count < 1 || total_count > 100) {
      res.status(400).json(badRequest('The total count must be between 1 and 100 for a yearly plan'));
      return;
    }
    if (start_at !== undefined && (!Number.isInteger(start_at) || start_at <= epoch(clock()))) {
      res.status(400).json(badRequest('start_at cannot be lesser than the current time'));
      return;
    }
    const id = razorpayId('sub');
    const sub = subscriptionEntity({
      id,
      plan_id,
      total_count,
      quantity: quantity ?? 1,
      customer_notify: Boolean(customer_notify ?? 1),
      notes: notes ?? [],
      start_at: start_at ?? null,
      charge_at: start_at ?? null,
      created_at: epoch(clock()),
      short_url: `https://rzp.io/i/${id.slice(4, 12)}`,
    });
    subscriptions.set(id, sub);
    res.json(sub);
  });

  app.get('/v1/subscriptions/:id', (req, res) => {
    const sub = find(req.params.id, res);
    if (sub) res.json(publicView(sub));
  });

  app.post('/v1/subscriptions/:id/cancel', (req, res) => {
    const sub = find(req.params.id, res);
    if (!sub) return;
    if (['cancelled', 'completed', 'expired'].includes(sub.status)) {
      res.status(400).json(badRequest(`Subscription is not cancellable in ${sub.status} status.`));
      return;
    }
    const atCycleEnd = req.body?.cancel_at_cycle_end === 1 || req.body?.cancel_at_cycle_end === true;
    if (atCycleEnd) sub.cancel_at_cycle_end = true;
    else {
      sub.status = 'cancelled';
      sub.ended_at = epoch(clock());
    }
    res.json(publicView(sub));
  });

  app.post('/v1/subscriptions/:id/pause', (req, res) => {
    const sub = find(req.params.id, res);
    if (!sub) return;
    if (sub.status !== 'active') {
      res.status(400).json(badRequest('Subscription can only be paused in active state'));
      return;
    }
    sub.status = 'paused';
    res.json(publicView(sub));
  });

  app.post('/v1/subscriptions/:id/resume', (req, res) => {
    const sub = find(req.params.id, res);
    if (!sub) return;
    if (sub.status !== 'paused') {
      res.status(400).json(badRequest('Subscription is not paused'));
      return;
    }
    sub.status = 'active';
    res.json(publicView(sub));
  });

  app.post('/v1/payments/:id/refund', async (req, res) => {
    if (refundDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, refundDelayMs));
    const key = req.header('x-refund-idempotency');
    const seen = key ? byIdempotencyKey.get(key) : undefined;
    if (seen) {
      // Razorpay: the same request with the same key returns the first refund; a different one is refused.
      if (seen.body === JSON.stringify(req.body)) res.json(seen.refund);
      else
        res
          .status(400)
          .json(badRequest('Different request with the same idempotency key has already been processed.'));
      return;
    }
    const amount = Number(req.body?.amount);
    const already = refundedByPayment.get(req.params.id) ?? 0;
    if (!req.params.id.startsWith('pay_') || !Number.isInteger(amount) || amount <= 0) {
      res.status(400).json(badRequest('The refund amount is invalid'));
      return;
    }
    if (already + amount > 250000) {
      res.status(400).json(badRequest('The refund amount provided is greater than amount captured'));
      return;
    }
    refundedByPayment.set(req.params.id, already + amount);
    const refund = {
      id: razorpayId('rfnd'),
      entity: 'refund',
      amount,
      currency: 'INR',
      payment_id: req.params.id,
      status: 'processed',
      speed_requested: req.body?.speed ?? 'normal',
      receipt: req.body?.receipt ?? null,
      notes: req.body?.notes ?? [],
      created_at: epoch(clock()),
    };
    refunds.push(refund);
    if (key) byIdempotencyKey.set(key, { body: JSON.stringify(req.body), refund });
    res.json(refund);
  });

  app.get('/v1/payments/:id/refunds', (req, res) => {
    const items = refunds.filter((r) => r.payment_id === req.params.id).reverse();
    res.json({ entity: 'collection', count: items.length, items });
  });

  const { server, url } = await listen(app as unknown as Parameters<typeof listen>[0], 0);
  return {
    url: `${url}/v1`,
    keyId,
    keySecret,
    calls,
    subscriptions,
    refunds,
    failNext(n = 1) {
      failures = n;
    },
    delayRefunds(ms) {
      refundDelayMs = ms;
    },
    activate(id, start, end) {
      const sub = subscriptions.get(id);
      if (!sub) throw new Error(`no subscription ${id}`);
      Object.assign(sub, {
        status: 'active',
        current_start: epoch(start),
        current_end: epoch(end),
        charge_at: epoch(end),
        paid_count: sub.paid_count + 1,
      });
      return publicView(sub);
    },
    close: () => closeServer(server as Server),
  };
}
