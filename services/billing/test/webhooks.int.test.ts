import { BillingEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  epoch,
  paymentEntity,
  razorpayId,
  signDelivery,
  subscriptionEntity,
  webhookEvent,
} from '../src/infra/razorpay-webhooks';
import { hmacHex } from '../src/infra/signatures';
import { type BillingHarness, DAY, PLAN_ID, startBilling, subscribe, WEBHOOK_SECRET } from './harness';

let h: BillingHarness;
beforeEach(async () => {
  h = await startBilling();
});
afterEach(async () => {
  await h.close();
});

const streamTypes = async (subscriptionId: string) =>
  (await h.events.readStream(`subscription-${subscriptionId}`)).map((e) => e.type);

async function checkout() {
  const user = await h.user();
  const reply = await h.post('/api/payment/checkout', { token: user.token });
  expect(reply.status).toBe(200);
  return { user, subscriptionId: reply.body.subscription.subscriptionId as string };
}

describe('POST /api/payment/verification: only Razorpay, signed with the webhook secret, changes anything', () => {
  it('refuses a forged signature, a missing one and one made with the API key secret: 400, nothing changes', async () => {
    const { user, subscriptionId } = await checkout();
    const [, , charged] = h.firstPayment(subscriptionId, user.userId).events;
    const before = await h.subscription(subscriptionId);
    const raw = JSON.stringify(charged);

    const forged = await h.sendRaw(raw, {
      'content-type': 'application/json',
      'x-razorpay-signature': hmacHex(raw, 'not-the-secret'),
      'x-razorpay-event-id': 'evt_forged0000001',
    });
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ status: false, message: 'Invalid webhook signature' });

    const unsigned = await h.sendRaw(raw, { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body).toEqual({ status: false, message: 'Missing webhook signature' });

    const withKeySecret = await h.deliver(charged!, { secret: h.keySecret });
    expect(withKeySecret.status).toBe(400);

    // A body changed after signing no longer matches its signature.
    const good = signDelivery(charged!, WEBHOOK_SECRET);
    const tampered = await h.sendRaw(good.raw.replace('250000', '1'), {
      'content-type': 'application/json',
      'x-razorpay-signature': good.signature,
      'x-razorpay-event-id': good.eventId,
    });
    expect(tampered.status).toBe(400);

    expect(await h.subscription(subscriptionId)).toEqual(before);
    expect(await streamTypes(subscriptionId)).toEqual([BillingEvents.SubscriptionCreated.type]);
    // None of them was remembered as processed: the genuine delivery of the same event id still applies.
    const genuine = await h.deliver(charged!, { eventId: 'evt_forged0000001' });
    expect(genuine.status).toBe(200);
    expect(genuine.body).toEqual({ status: true });
    expect((await h.subscription(subscriptionId)).entitled).toBe(true);
  });

  it('verifies the raw bytes whatever the content type says', async () => {
    const { user, subscriptionId } = await checkout();
    const [, , charged] = h.firstPayment(subscriptionId, user.userId).events;
    const delivery = signDelivery(charged!, WEBHOOK_SECRET);
    const reply = await h.sendRaw(delivery.raw, {
      'content-type': 'text/plain',
      'x-razorpay-signature': delivery.signature,
      'x-razorpay-event-id': delivery.eventId,
    });
    expect(reply.status).toBe(200);
    expect((await h.subscription(subscriptionId)).entitled).toBe(true);
  });

  it('answers 400 to a correctly signed body that is not a Razorpay event', async () => {
    const raw = '{"hello":"world"}';
    const reply = await h.sendRaw(raw, {
      'content-type': 'application/json',
      'x-razorpay-signature': hmacHex(raw, WEBHOOK_SECRET),
    });
    expect(reply.status).toBe(400);
    const notJson = 'not json';
    const broken = await h.sendRaw(notJson, { 'x-razorpay-signature': hmacHex(notJson, WEBHOOK_SECRET) });
    expect(broken.status).toBe(400);
  });

  it('counts a replayed event once (same event id), and a payment once even under a new event id', async () => {
    const { user, subscriptionId } = await checkout();
    const [, , charged] = h.firstPayment(subscriptionId, user.userId).events;
    const first = await h.deliver(charged!, { eventId: 'evt_replay00000001' });
    expect(first.body).toEqual({ status: true });
    const replay = await h.deliver(charged!, { eventId: 'evt_replay00000001' });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ status: true, duplicate: true });
    const redelivered = await h.deliver(charged!, { eventId: 'evt_other000000001' });
    expect(redelivered.status).toBe(200);

    const sub = await h.subscription(subscriptionId);
    expect(sub.payments).toHaveLength(1);
    const types = await streamTypes(subscriptionId);
    expect(types.filter((t) => t === BillingEvents.SubscriptionActivated.type)).toHaveLength(1);
    expect(types.filter((t) => t === BillingEvents.PaymentCaptured.type)).toHaveLength(1);
    const history = await h.post('/api/payment/history', { token: user.token });
    expect(history.body.history).toHaveLength(1);
  });

  it('ends in the right state whatever order the lifecycle events arrive in', async () => {
    const { user, subscriptionId } = await checkout();
    const [authenticated, activated, charged] = h.firstPayment(subscriptionId, user.userId).events;
    for (const event of [charged!, activated!, authenticated!])
      expect((await h.deliver(event)).status).toBe(200);
    // An old 'pending' snapshot (from before the first charge) arrives last.
    const stalePending = webhookEvent(
      'subscription.pending',
      {
        subscription: subscriptionEntity({
          id: subscriptionId,
          status: 'pending',
          paid_count: 0,
          notes: { userId: user.userId },
        }),
      },
      new Date(h.clock.now().getTime() - 60_000),
    );
    expect((await h.deliver(stalePending)).status).toBe(200);

    const sub = await h.subscription(subscriptionId);
    expect(sub).toMatchObject({ status: 'active', entitled: true, paidCount: 1 });
    expect(sub.endAt).toBe(new Date(charged!.payload.subscription!.entity.current_end! * 1000).toISOString());
    const details = await h.post('/api/payment/details', { token: user.token });
    expect(details.body.details).toMatchObject({ status: 'active', renewal: 'Active' });
  });

  it('follows the lifecycle: renewal, pending, halted (premium ends), a late charge brings it back', async () => {
    const user = await h.user();
    const { subscriptionId, subscription } = await subscribe(h, user);
    const firstEnd = new Date(subscription.current_end! * 1000);

    // A year later Razorpay renews: SubscriptionRenewed moves endAt on.
    h.clock.set(firstEnd);
    expect((await h.deliver(h.renewal(subscriptionId, user.userId, firstEnd, 2))).status).toBe(200);
    let sub = await h.subscription(subscriptionId);
    const secondEnd = new Date(firstEnd);
    secondEnd.setUTCFullYear(secondEnd.getUTCFullYear() + 1);
    expect(sub).toMatchObject({ entitled: true, paidCount: 2, endAt: secondEnd.toISOString() });
    expect(await streamTypes(subscriptionId)).toContain(BillingEvents.SubscriptionRenewed.type);

    // The next renewal fails: pending, then halted after Razorpay's retries.
    h.clock.set(new Date(secondEnd.getTime() + DAY));
    const snapshot = (status: string) =>
      subscriptionEntity({
        id: subscriptionId,
        status,
        paid_count: 2,
        current_start: epoch(firstEnd),
        current_end: epoch(secondEnd),
        notes: { userId: user.userId },
      });
    await h.deliver(
      webhookEvent('subscription.pending', { subscription: snapshot('pending') }, h.clock.now()),
    );
    expect(await h.subscription(subscriptionId)).toMatchObject({ status: 'pending', entitled: true });
    h.clock.advance(3 * DAY);
    await h.deliver(webhookEvent('subscription.halted', { subscription: snapshot('halted') }, h.clock.now()));
    sub = await h.subscription(subscriptionId);
    expect(sub).toMatchObject({ entitled: false });
    expect(await streamTypes(subscriptionId)).toContain(BillingEvents.SubscriptionExpired.type);

    // The customer pays the halted invoice: Razorpay charges and reactivates; premium comes back.
    h.clock.advance(DAY);
    const now = h.clock.now();
    const active = subscriptionEntity({
      id: subscriptionId,
      status: 'active',
      paid_count: 3,
      current_start: epoch(now),
      current_end: epoch(new Date(now.getTime() + 365 * DAY)),
      notes: { userId: user.userId },
    });
    const payment = paymentEntity({ id: razorpayId('pay'), amount: 250000, created_at: epoch(now) });
    await h.deliver(webhookEvent('subscription.activated', { subscription: active, payment }, now));
    await h.deliver(webhookEvent('subscription.charged', { subscription: active, payment }, now));
    sub = await h.subscription(subscriptionId);
    expect(sub).toMatchObject({ entitled: true, status: 'active', paidCount: 3 });
    const types = await streamTypes(subscriptionId);
    expect(types.filter((t) => t === BillingEvents.SubscriptionActivated.type)).toHaveLength(2);
  });

  it('a cancel made elsewhere (dashboard) turns renewal off; premium runs to the end of the paid term', async () => {
    const user = await h.user();
    const { subscriptionId, subscription } = await subscribe(h, user);
    h.clock.advance(20 * DAY);
    const cancelled = subscriptionEntity({
      ...subscription,
      status: 'cancelled',
      ended_at: epoch(h.clock.now()),
    });
    await h.deliver(webhookEvent('subscription.cancelled', { subscription: cancelled }, h.clock.now()));
    const sub = await h.subscription(subscriptionId);
    expect(sub).toMatchObject({ entitled: true, cancelAtCycleEnd: true, status: 'cancelled' });
    const events = await h.events.readStream(`subscription-${subscriptionId}`);
    expect(events.find((e) => e.type === BillingEvents.SubscriptionCancelled.type)?.data).toMatchObject({
      immediate: false,
      refunded: false,
    });
    const details = await h.post('/api/payment/details', { token: user.token });
    expect(details.body.details).toMatchObject({ status: 'cancelled', renewal: 'Disabled' });
  });

  it('records payment.failed without changing the subscription, and acknowledges unknown events and subscriptions', async () => {
    const { subscriptionId } = await checkout();
    const failed = paymentEntity({
      id: razorpayId('pay'),
      amount: 250000,
      status: 'failed',
      subscription_id: subscriptionId,
      error_code: 'BAD_REQUEST_ERROR',
      error_description: 'Card declined',
    });
    const reply = await h.deliver(webhookEvent('payment.failed', { payment: failed }, h.clock.now()));
    expect(reply.body).toEqual({ status: true });
    expect(await h.subscription(subscriptionId)).toMatchObject({
      status: 'created',
      entitled: false,
      failedPaymentIds: [failed.id],
    });

    const refund = await h.deliver(webhookEvent('refund.processed', {}, h.clock.now()));
    expect(refund.body).toEqual({ status: true, ignored: true });
    const stranger = await h.deliver(
      webhookEvent(
        'subscription.activated',
        {
          subscription: subscriptionEntity({ id: 'sub_notours0000001', status: 'active', plan_id: PLAN_ID }),
        },
        h.clock.now(),
      ),
    );
    expect(stranger.body).toEqual({ status: true, ignored: true });
  });

  it('trusts its own record of the user, not notes or e-mails in the payload', async () => {
    const { user, subscriptionId } = await checkout();
    const [, , charged] = h.firstPayment(subscriptionId, 'someone-else').events;
    charged!.payload.payment!.entity.email = 'attacker@example.com';
    await h.deliver(charged!);
    const sub = await h.subscription(subscriptionId);
    expect(sub).toMatchObject({ userId: user.userId, email: user.email, entitled: true });
    const activated = (await h.events.readStream(`subscription-${subscriptionId}`)).find(
      (e) => e.type === BillingEvents.SubscriptionActivated.type,
    );
    expect(activated?.data).toMatchObject({ userId: user.userId, email: user.email });
  });
});
