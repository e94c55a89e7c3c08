import { BillingEvents, type User } from '@nudge/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserRecords } from '../src/infra/auth-users';
import { checkoutSignature } from '../src/infra/signatures';
import { type BillingHarness, PLAN_ID, startBilling, subscribe } from './harness';

/** Stands in for auth's GET /internal/users/:id: the user record a refused checkout returns (reader.md §4). */
const records = (): UserRecords & { seen: string[] } => {
  const seen: string[] = [];
  return {
    seen,
    async get(userId) {
      seen.push(userId);
      return { _id: userId, email: `${userId}@example.com`, role: 'user' } as unknown as User;
    },
  };
};

let h: BillingHarness;
afterEach(async () => {
  await h?.close();
});

describe('POST /api/payment/checkout', () => {
  it('creates a yearly subscription at Razorpay and returns the key and subscription id with the user', async () => {
    const users = records();
    h = await startBilling({ users });
    const user = await h.user();
    const reply = await h.post('/api/payment/checkout', { token: user.token });
    expect(reply.status).toBe(200);
    const subscriptionId = reply.body.subscription.subscriptionId;
    expect(reply.body).toEqual({
      status: true,
      subscription: { key: h.keyId, subscriptionId: expect.stringMatching(/^sub_/) },
      user: { _id: user.userId, email: `${user.userId}@example.com`, role: 'user' },
    });
    expect(reply.body.checkoutUrl).toBeUndefined();
    expect(h.api!.calls.find((c) => c.path === '/v1/subscriptions')?.body).toMatchObject({
      plan_id: PLAN_ID,
      total_count: 10,
      notes: { userId: user.userId },
    });
    expect(await h.subscription(subscriptionId)).toMatchObject({
      userId: user.userId,
      email: user.email,
      status: 'created',
      amount: 250000,
      currency: 'INR',
      entitled: false,
    });
  });

  it('refuses an admin and a reader whose subscription runs, with the user record (409)', async () => {
    const users = records();
    h = await startBilling({ users });
    const admin = await h.user('admin');
    const refused = await h.post('/api/payment/checkout', { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      status: false,
      message: 'Admins already have every premium feature',
      user: { _id: admin.userId },
    });

    const reader = await h.user();
    await subscribe(h, reader);
    const again = await h.post('/api/payment/checkout', { token: reader.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: false, message: 'You already have an active subscription' });
    expect(again.body.user._id).toBe(reader.userId);
  });

  it('uses the current role, not the one in an older token', async () => {
    h = await startBilling();
    const reader = await h.user();
    await h.changeRole(reader, 'admin');
    const refused = await h.post('/api/payment/checkout', { token: reader.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Admins already have every premium feature');
  });

  it('refuses a reader an admin made premium (no subscription): they already have it; as a user again they can buy', async () => {
    h = await startBilling();
    const premium = await h.user('premium');
    const refused = await h.post('/api/payment/checkout', { token: premium.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      status: false,
      message: 'You already have premium access, given by an administrator, so there is nothing to buy',
    });
    expect(await h.store.collection('subscriptions').countDocuments({ userId: premium.userId })).toBe(0);

    await h.changeRole(premium, 'user');
    expect((await h.post('/api/payment/checkout', { token: premium.token })).status).toBe(200);
  });

  it('answers 502 with the user when Razorpay fails, and records nothing', async () => {
    const users = records();
    h = await startBilling({ users });
    const user = await h.user();
    h.api!.failNext();
    const reply = await h.post('/api/payment/checkout', { token: user.token });
    expect(reply.status).toBe(502);
    expect(reply.body).toMatchObject({
      status: false,
      message: 'We could not start the payment with Razorpay. Please try again later.',
      user: { _id: user.userId },
    });
    expect(await h.store.collection('subscriptions').countDocuments({ userId: user.userId })).toBe(0);
  });

  it('needs a signed-in reader', async () => {
    h = await startBilling();
    const anonymous = await h.post('/api/payment/checkout', {});
    expect(anonymous.status).toBe(401);
    const bad = await h.post('/api/payment/checkout', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
  });
});

describe('POST /api/payment/confirm: the checkout handler result, verified with the key secret', () => {
  it('records a valid result for the owner; activation still waits for the webhook', async () => {
    h = await startBilling();
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    const subscriptionId = checkout.body.subscription.subscriptionId;
    const paymentId = 'pay_00000000000077';
    const body = {
      token: user.token,
      razorpay_payment_id: paymentId,
      razorpay_subscription_id: subscriptionId,
      razorpay_signature: checkoutSignature(paymentId, subscriptionId, h.keySecret),
    };
    const reply = await h.post('/api/payment/confirm', body);
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe(
      'Your payment is confirmed. Your subscription starts as soon as Razorpay reports the charge.',
    );
    expect(await h.subscription(subscriptionId)).toMatchObject({
      confirmedPaymentIds: [paymentId],
      entitled: false,
    });
    // The same report twice is recorded once.
    await h.post('/api/payment/confirm', body);
    const types = (await h.events.readStream(`subscription-${subscriptionId}`)).map((e) => e.type);
    expect(types.filter((t) => t === BillingEvents.CheckoutConfirmed.type)).toHaveLength(1);
  });

  it('refuses a signature made with another secret, and another reader’s subscription (400)', async () => {
    h = await startBilling();
    const owner = await h.user();
    const other = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: owner.token });
    const subscriptionId = checkout.body.subscription.subscriptionId;
    const paymentId = 'pay_00000000000078';
    const forged = await h.post('/api/payment/confirm', {
      token: owner.token,
      razorpay_payment_id: paymentId,
      razorpay_subscription_id: subscriptionId,
      razorpay_signature: checkoutSignature(paymentId, subscriptionId, 'webhook-or-other-secret'),
    });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe('The payment signature is not valid');

    const stolen = await h.post('/api/payment/confirm', {
      token: other.token,
      razorpay_payment_id: paymentId,
      razorpay_subscription_id: subscriptionId,
      razorpay_signature: checkoutSignature(paymentId, subscriptionId, h.keySecret),
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toBe('This subscription does not belong to you');

    const malformed = await h.post('/api/payment/confirm', { token: owner.token, razorpay_payment_id: 'x' });
    expect(malformed.status).toBe(400);
    expect((await h.subscription(subscriptionId)).confirmedPaymentIds).toEqual([]);
  });
});
