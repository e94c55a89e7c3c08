import { BillingEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  epoch,
  paymentEntity,
  razorpayId,
  subscriptionEntity,
  webhookEvent,
} from '../src/infra/razorpay-webhooks';
import { type BillingHarness, DAY, startBilling, subscribe } from './harness';

let h: BillingHarness;
beforeEach(async () => {
  h = await startBilling({ start: '2026-03-01T10:00:00.000Z' });
});
afterEach(async () => {
  await h.close();
});

const eventsOf = async (subscriptionId: string) => h.events.readStream(`subscription-${subscriptionId}`);
const apiCalls = (path: string) => h.api!.calls.filter((c) => c.path === path);

describe('POST /api/payment/details', () => {
  it('answers details null before any subscription, and the running subscription after payment', async () => {
    const user = await h.user();
    expect((await h.post('/api/payment/details', { token: user.token })).body).toEqual({
      status: true,
      details: null,
    });
    // An abandoned checkout is not a subscription to show.
    await h.post('/api/payment/checkout', { token: user.token });
    expect((await h.post('/api/payment/details', { token: user.token })).body.details).toBeNull();

    const { subscriptionId } = await subscribe(h, user);
    const reply = await h.post('/api/payment/details', { token: user.token });
    expect(reply.body).toEqual({
      status: true,
      details: {
        subscriptionId,
        status: 'active',
        startAt: '2026-03-01T10:00:00.000Z',
        endAt: '2027-03-01T10:00:00.000Z',
        renewal: 'Active',
        cancelAtCycleEnd: false,
        nextSubscriptionId: null,
        plan: { name: '1 Year plan', months: 12, amount: 250000, currency: 'INR' },
      },
    });
  });
});

describe('POST /api/payment/cancel: the 7-day refund window (reader.md §9)', () => {
  it('on day 6 cancels at once at Razorpay, refunds the payment and ends premium now', async () => {
    const user = await h.user();
    const { subscriptionId, payment } = await subscribe(h, user);
    h.clock.advance(6 * DAY);
    const reply = await h.post('/api/payment/cancel', { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe(
      'Your subscription has been cancelled and a refund of ₹2500 has been issued.',
    );
    expect(reply.body.details).toMatchObject({
      subscriptionId,
      status: 'cancelled',
      renewal: 'Disabled',
      endAt: h.clock.now().toISOString(),
    });

    const cancels = apiCalls(`/v1/subscriptions/${subscriptionId}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.body?.cancel_at_cycle_end).toBeUndefined();
    expect(
      apiCalls(`/v1/payments/${payment.id}/refund`).map((c) => ({ body: c.body, key: c.idempotencyKey })),
    ).toEqual([
      {
        body: {
          amount: 250000,
          speed: 'normal',
          receipt: `refund_${payment.id}`,
          notes: { refund_receipt: `refund_${payment.id}` },
        },
        key: `nudge-refund-${payment.id}`,
      },
    ]);

    const cancelled = (await eventsOf(subscriptionId)).find(
      (e) => e.type === BillingEvents.SubscriptionCancelled.type,
    );
    expect(cancelled?.data).toMatchObject({ userId: user.userId, immediate: true, refunded: true });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'cancelled' });

    const history = await h.post('/api/payment/history', { token: user.token });
    expect(history.body.history.map((e: any) => [e.kind, e.amount])).toEqual([
      ['refund', -250000],
      ['payment', 250000],
    ]);

    // Razorpay's own subscription.cancelled webhook afterwards changes nothing.
    const echo = subscriptionEntity({
      id: subscriptionId,
      status: 'cancelled',
      paid_count: 1,
      ended_at: epoch(h.clock.now()),
    });
    await h.deliver(webhookEvent('subscription.cancelled', { subscription: echo }, h.clock.now()));
    expect(
      (await eventsOf(subscriptionId)).filter((e) => e.type === BillingEvents.SubscriptionCancelled.type),
    ).toHaveLength(1);
    // Nothing left to cancel.
    expect((await h.post('/api/payment/cancel', { token: user.token })).status).toBe(409);
  });

  it('on day 8 turns renewal off at the end of the term (cancel_at_cycle_end=1); premium runs to endAt', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(8 * DAY);
    const reply = await h.post('/api/payment/cancel', { token: user.token });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe(
      'You will not be charged again on 1 March 2027 because subscription renewal is disabled.',
    );
    expect(reply.body.details).toMatchObject({
      status: 'cancelled',
      renewal: 'Disabled',
      cancelAtCycleEnd: true,
      endAt: '2027-03-01T10:00:00.000Z',
    });
    expect(apiCalls(`/v1/subscriptions/${subscriptionId}/cancel`).map((c) => c.body)).toEqual([
      { cancel_at_cycle_end: 1 },
    ]);
    expect(h.api!.refunds).toHaveLength(0);
    const cancelled = (await eventsOf(subscriptionId)).find(
      (e) => e.type === BillingEvents.SubscriptionCancelled.type,
    );
    expect(cancelled?.data).toMatchObject({
      immediate: false,
      refunded: false,
      endAt: '2027-03-01T10:00:00.000Z',
    });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true, cancelAtCycleEnd: true });

    // Cancelling again says the same and asks Razorpay nothing more.
    const again = await h.post('/api/payment/cancel', { token: user.token });
    expect(again.body.message).toBe(reply.body.message);
    expect(apiCalls(`/v1/subscriptions/${subscriptionId}/cancel`)).toHaveLength(1);
  });

  it('refunds a renewal charge cancelled within 7 days of that renewal', async () => {
    const user = await h.user();
    const { subscriptionId, subscription } = await subscribe(h, user);
    const firstEnd = new Date(subscription.current_end! * 1000);
    h.clock.set(firstEnd);
    const renewal = h.renewal(subscriptionId, user.userId, firstEnd, 2);
    await h.deliver(renewal);
    h.clock.advance(2 * DAY);
    const reply = await h.post('/api/payment/cancel', { token: user.token });
    expect(reply.body.message).toContain('a refund of ₹2500');
    expect(h.api!.refunds.map((r) => r.payment_id)).toEqual([renewal.payload.payment!.entity.id]);
  });

  it('says so when Razorpay refuses to cancel, and changes nothing', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    h.api!.failNext(2);
    const reply = await h.post('/api/payment/cancel', { token: user.token });
    expect(reply.status).toBe(503);
    expect(reply.body.message).toBe(
      'Razorpay could not change your subscription right now. Please try again later.',
    );
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true, cancelAtCycleEnd: false });
  });
});

describe('POST /api/payment/restart: renewal back on after a cancel', () => {
  it('creates a subscription starting at endAt, authorised at checkout; then renewal is Active', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(30 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });

    const restart = await h.post('/api/payment/restart', { token: user.token });
    expect(restart.status).toBe(200);
    const nextId = restart.body.subscription.subscriptionId;
    expect(nextId).not.toBe(subscriptionId);
    expect(restart.body).toMatchObject({
      status: true,
      message: 'Please authorise the renewal: your subscription will then renew on 1 March 2027',
      subscription: { key: h.keyId, subscriptionId: nextId },
      details: { subscriptionId, renewal: 'Disabled', nextSubscriptionId: nextId },
    });
    expect(apiCalls('/v1/subscriptions').at(-1)!.body).toMatchObject({
      start_at: epoch(new Date('2027-03-01T10:00:00.000Z')),
      total_count: 10,
      notes: { userId: user.userId, renews: subscriptionId },
    });

    // Until it is authorised, asking again reuses the same new subscription.
    const repeat = await h.post('/api/payment/restart', { token: user.token });
    expect(repeat.body.subscription.subscriptionId).toBe(nextId);
    expect(apiCalls('/v1/subscriptions').filter((c) => c.method === 'POST')).toHaveLength(2);

    // The reader authorises it at checkout: Razorpay says subscription.authenticated.
    const authenticated = subscriptionEntity({
      id: nextId,
      status: 'authenticated',
      start_at: epoch(new Date('2027-03-01T10:00:00.000Z')),
      notes: { userId: user.userId, renews: subscriptionId },
    });
    await h.deliver(
      webhookEvent('subscription.authenticated', { subscription: authenticated }, h.clock.now()),
    );
    const details = await h.post('/api/payment/details', { token: user.token });
    expect(details.body.details).toMatchObject({
      subscriptionId,
      status: 'active',
      renewal: 'Active',
      cancelAtCycleEnd: false,
      endAt: '2027-03-01T10:00:00.000Z',
      nextSubscriptionId: nextId,
    });
    const on = await h.post('/api/payment/restart', { token: user.token });
    expect(on.body.message).toBe('Your subscription will renew on 1 March 2027');
    expect(on.body.subscription).toBeUndefined();

    // The term ends: Razorpay cancels the old one and charges the new one. Premium never lapses.
    h.clock.set('2027-03-01T10:00:00.000Z');
    const oldEnded = subscriptionEntity({ id: subscriptionId, status: 'cancelled', paid_count: 1 });
    await h.deliver(webhookEvent('subscription.cancelled', { subscription: oldEnded }, h.clock.now()));
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    h.clock.advance(60_000);
    const now = h.clock.now();
    const active = subscriptionEntity({
      id: nextId,
      status: 'active',
      paid_count: 1,
      current_start: epoch(new Date('2027-03-01T10:00:00.000Z')),
      current_end: epoch(new Date('2028-03-01T10:00:00.000Z')),
    });
    const payment = paymentEntity({ id: razorpayId('pay'), amount: 250000, created_at: epoch(now) });
    await h.deliver(webhookEvent('subscription.activated', { subscription: active, payment }, now));
    await h.deliver(webhookEvent('subscription.charged', { subscription: active, payment }, now));
    expect(await h.subscription(nextId)).toMatchObject({ entitled: true, endAt: '2028-03-01T10:00:00.000Z' });
    const after = await h.post('/api/payment/details', { token: user.token });
    expect(after.body.details).toMatchObject({ subscriptionId: nextId, renewal: 'Active' });

    // The old one ends after the grace period; the new one carries premium on.
    expect(await h.service.expireDueSubscriptions(new Date('2027-03-04T10:00:00.000Z'))).toEqual([
      subscriptionId,
    ]);
    expect(await h.subscription(nextId)).toMatchObject({ entitled: true });
  });

  it('turning renewal off again withdraws the restart’s subscription at Razorpay', async () => {
    const user = await h.user();
    await subscribe(h, user);
    h.clock.advance(30 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });
    const restart = await h.post('/api/payment/restart', { token: user.token });
    const nextId = restart.body.subscription.subscriptionId;
    h.api!.subscriptions.get(nextId)!.status = 'authenticated';
    await h.deliver(
      webhookEvent(
        'subscription.authenticated',
        { subscription: subscriptionEntity({ id: nextId, status: 'authenticated' }) },
        h.clock.now(),
      ),
    );
    const cancel = await h.post('/api/payment/cancel', { token: user.token });
    expect(cancel.body.details).toMatchObject({ renewal: 'Disabled', nextSubscriptionId: null });
    expect(apiCalls(`/v1/subscriptions/${nextId}/cancel`)).toHaveLength(1);
    expect(await h.subscription(nextId)).toMatchObject({ status: 'cancelled' });
  });

  it('resumes a paused subscription instead', async () => {
    const user = await h.user();
    const { subscriptionId, subscription } = await subscribe(h, user);
    h.clock.advance(30 * DAY);
    h.api!.subscriptions.get(subscriptionId)!.status = 'paused';
    await h.deliver(
      webhookEvent(
        'subscription.paused',
        { subscription: subscriptionEntity({ ...subscription, status: 'paused' }) },
        h.clock.now(),
      ),
    );
    expect((await h.post('/api/payment/details', { token: user.token })).body.details.renewal).toBe(
      'Disabled',
    );
    const reply = await h.post('/api/payment/restart', { token: user.token });
    expect(reply.body).toMatchObject({
      message: 'Your subscription will renew on 1 March 2027',
      details: { status: 'active', renewal: 'Active' },
    });
    expect(apiCalls(`/v1/subscriptions/${subscriptionId}/resume`)).toHaveLength(1);
  });

  it('refuses without a running subscription', async () => {
    const user = await h.user();
    const reply = await h.post('/api/payment/restart', { token: user.token });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ status: false, message: 'You have no subscription to restart' });
  });
});
