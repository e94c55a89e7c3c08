import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../src/infra/payment-provider';
import { createRazorpayProvider } from '../src/infra/razorpay-provider';
import { type FakeRazorpayApi, startFakeRazorpayApi } from './fake-razorpay-api';

describe('RazorpayProvider: the real razorpay client against a server that answers like the Razorpay API', () => {
  let api: FakeRazorpayApi;
  beforeAll(async () => {
    api = await startFakeRazorpayApi();
  });
  afterAll(async () => {
    await api.close();
  });
  const provider = () =>
    createRazorpayProvider({ keyId: api.keyId, keySecret: api.keySecret, apiUrl: api.url });

  it('creates a subscription with the plan, cycle count, notes and basic auth, through RAZORPAY_API_URL', async () => {
    const before = api.calls.length;
    const sub = await provider().createSubscription({
      planId: 'plan_yearly0000000001',
      totalCount: 10,
      notes: { userId: 'u1' },
    });
    expect(sub.id).toMatch(/^sub_[A-Za-z0-9]{14}$/);
    expect(sub.status).toBe('created');
    const call = api.calls.at(-1)!;
    expect(api.calls.length).toBe(before + 1);
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/subscriptions',
      body: { plan_id: 'plan_yearly0000000001', total_count: 10, quantity: 1, notes: { userId: 'u1' } },
    });
    expect(call.body.start_at).toBeUndefined();
    expect(api.subscriptions.has(sub.id)).toBe(true);
  });

  it('accepts the API URL with or without /v1 and a trailing slash', async () => {
    const bare = createRazorpayProvider({
      keyId: api.keyId,
      keySecret: api.keySecret,
      apiUrl: `${api.url.replace(/\/v1$/, '')}/`,
    });
    const sub = await bare.createSubscription({ planId: 'plan_a', totalCount: 1, notes: {} });
    expect((await bare.fetchSubscription(sub.id)).id).toBe(sub.id);
  });

  it('sends start_at in seconds for a subscription that starts later', async () => {
    const startAt = new Date(Date.now() + 30 * 24 * 3600_000);
    const sub = await provider().createSubscription({
      planId: 'plan_yearly0000000001',
      totalCount: 10,
      notes: { userId: 'u1' },
      startAt,
    });
    expect(api.calls.at(-1)!.body.start_at).toBe(Math.floor(startAt.getTime() / 1000));
    expect(sub.start_at).toBe(Math.floor(startAt.getTime() / 1000));
  });

  it('cancels at cycle end with cancel_at_cycle_end=1, and at once without it', async () => {
    const p = provider();
    const a = await p.createSubscription({ planId: 'plan_a', totalCount: 10, notes: {} });
    api.activate(a.id, new Date(), new Date(Date.now() + 365 * 24 * 3600_000));
    const atEnd = await p.cancelSubscription(a.id, { atCycleEnd: true });
    expect(api.calls.at(-1)).toMatchObject({
      path: `/v1/subscriptions/${a.id}/cancel`,
      body: { cancel_at_cycle_end: 1 },
    });
    expect(atEnd.status).toBe('active');

    const b = await p.createSubscription({ planId: 'plan_a', totalCount: 10, notes: {} });
    const now = await p.cancelSubscription(b.id, { atCycleEnd: false });
    expect(api.calls.at(-1)!.body?.cancel_at_cycle_end).toBeUndefined();
    expect(now.status).toBe('cancelled');
  });

  it('pauses and resumes', async () => {
    const p = provider();
    const sub = await p.createSubscription({ planId: 'plan_a', totalCount: 10, notes: {} });
    api.activate(sub.id, new Date(), new Date(Date.now() + 365 * 24 * 3600_000));
    expect((await p.pauseSubscription(sub.id)).status).toBe('paused');
    expect(api.calls.at(-1)).toMatchObject({
      path: `/v1/subscriptions/${sub.id}/pause`,
      body: { pause_at: 'now' },
    });
    expect((await p.resumeSubscription(sub.id)).status).toBe('active');
    expect(api.calls.at(-1)).toMatchObject({ body: { resume_at: 'now' } });
  });

  it('refunds a payment by amount', async () => {
    const refund = await provider().refundPayment('pay_00000000000042', 250000);
    expect(refund).toMatchObject({ amount: 250000, payment_id: 'pay_00000000000042', status: 'processed' });
    expect(refund.id).toMatch(/^rfnd_/);
    expect(api.calls.at(-1)).toMatchObject({
      path: '/v1/payments/pay_00000000000042/refund',
      body: { amount: 250000, speed: 'normal' },
    });
  });

  it('refunds with an idempotency key: the same request again returns the first refund, which the refund list shows', async () => {
    const p = provider();
    const options = {
      receipt: 'refund_pay_00000000000043',
      idempotencyKey: 'nudge-refund-pay_00000000000043',
    };
    const first = await p.refundPayment('pay_00000000000043', 250000, options);
    expect(api.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/payments/pay_00000000000043/refund',
      body: {
        amount: 250000,
        speed: 'normal',
        receipt: 'refund_pay_00000000000043',
        notes: { refund_receipt: 'refund_pay_00000000000043' },
      },
      idempotencyKey: 'nudge-refund-pay_00000000000043',
    });
    const again = await p.refundPayment('pay_00000000000043', 250000, options);
    expect(again.id).toBe(first.id);
    expect(api.refunds.filter((r) => r.payment_id === 'pay_00000000000043')).toHaveLength(1);

    const listed = await p.fetchRefunds('pay_00000000000043');
    expect(listed).toEqual([
      expect.objectContaining({
        id: first.id,
        amount: 250000,
        status: 'processed',
        receipt: options.receipt,
      }),
    ]);
    expect(api.calls.at(-1)).toMatchObject({
      method: 'GET',
      path: '/v1/payments/pay_00000000000043/refunds',
    });
    expect(await p.fetchRefunds('pay_00000000000044')).toEqual([]);

    // A different request under a used key is Razorpay's refusal, as a ProviderError with its status.
    const refused = await p.refundPayment('pay_00000000000043', 100, options).catch((e) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ status: 400, code: 'BAD_REQUEST_ERROR' });
  });

  it("turns Razorpay's refusals, outages and unreachable hosts into ProviderError", async () => {
    const p = provider();
    const refused = await p.cancelSubscription('sub_doesnotexist01', { atCycleEnd: false }).catch((e) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ status: 400, code: 'BAD_REQUEST_ERROR' });
    expect(refused.message).toContain('The id provided does not exist');

    const wrongKey = createRazorpayProvider({ keyId: api.keyId, keySecret: 'wrong', apiUrl: api.url });
    const unauthorised = await wrongKey.fetchSubscription('sub_x').catch((e) => e);
    expect(unauthorised).toBeInstanceOf(ProviderError);
    expect(unauthorised.status).toBe(401);

    api.failNext();
    const outage = await p.createSubscription({ planId: 'plan_a', totalCount: 1, notes: {} }).catch((e) => e);
    expect(outage).toBeInstanceOf(ProviderError);
    expect(outage.status).toBe(500);

    const nowhere = createRazorpayProvider({
      keyId: api.keyId,
      keySecret: api.keySecret,
      apiUrl: 'http://127.0.0.1:9/v1',
    });
    const unreachable = await nowhere.fetchSubscription('sub_x').catch((e) => e);
    expect(unreachable).toBeInstanceOf(ProviderError);
    expect(unreachable.status).toBeUndefined();
  });
});
