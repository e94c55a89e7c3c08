import { BillingEvents } from '@nudge/contracts';
import { createEmbeddedStore, createLogger } from '@nudge/platform';
import { submitSimulatedCheckout } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRefunds,
  REFUNDS,
  type RefundRecord,
  refundIdempotencyKey,
  refundReceipt,
} from '../src/app/refunds';
import { type PaymentProvider, ProviderError, type ProviderRefund } from '../src/infra/payment-provider';
import { createRazorpayProvider } from '../src/infra/razorpay-provider';
import { SIMULATED_REFUNDS } from '../src/infra/simulated-razorpay';
import { startFakeRazorpayApi } from './fake-razorpay-api';
import { BILLING_INTERNAL_TOKEN, type BillingHarness, DAY, startBilling } from './harness';

let h: BillingHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MINUTE = 60_000;

/** A reader who paid through the simulated checkout: the payment the simulated Razorpay captured. */
async function paidReader(harness: BillingHarness) {
  const user = await harness.user();
  const checkout = await harness.post('/api/payment/checkout', { token: user.token });
  expect(checkout.status).toBe(200);
  const paid = await submitSimulatedCheckout(harness.url, checkout.body.checkoutUrl);
  expect(paid.status).toBe(303);
  const subscriptionId: string = checkout.body.subscription.subscriptionId;
  const payment = await harness.store
    .collection<{ _id: string; amount: number }>('simulated_razorpay_payments')
    .findOne({ subscription_id: subscriptionId, status: 'captured' });
  if (!payment) throw new Error('no captured payment');
  return { user, subscriptionId, paymentId: payment._id, amount: payment.amount };
}

/**
 * What a cancel that died mid-refund leaves behind (process killed, or Razorpay's answer lost): the ledger's pending
 * record, written before Razorpay was asked, and the subscription still entitled.
 */
async function pendingRecord(harness: BillingHarness, paid: Awaited<ReturnType<typeof paidReader>>) {
  await harness.store.collection<RefundRecord>(REFUNDS).insertOne({
    _id: paid.paymentId,
    subscriptionId: paid.subscriptionId,
    userId: paid.user.userId,
    amount: paid.amount,
    state: 'pending',
    requestedAt: harness.clock.now().toISOString(),
  });
}

/** Razorpay received the refund (the same request the cancel sends) before the answer was lost. */
const refundAtRazorpay = (harness: BillingHarness, paymentId: string, amount: number) =>
  harness.simulated!.refundPayment(paymentId, amount, {
    receipt: refundReceipt(paymentId),
    idempotencyKey: refundIdempotencyKey(paymentId),
  });

const reconcile = (harness: BillingHarness) =>
  fetch(`${harness.url}/internal/refunds/reconcile`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': BILLING_INTERNAL_TOKEN },
    body: '{}',
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

const refundsAtRazorpay = async (harness: BillingHarness, paymentId: string) =>
  harness.store
    .collection<ProviderRefund & { _id: string }>(SIMULATED_REFUNDS)
    .find({ payment_id: paymentId });

const eventTypes = async (harness: BillingHarness, subscriptionId: string) =>
  (await harness.events.readStream(`subscription-${subscriptionId}`)).map((e) => e.type);

describe('refund reconciliation (embedded path, simulated Razorpay)', () => {
  it('settles refunds left pending: made -> refunded, never received -> asked once more with the same key, failed -> failed', async () => {
    h = await startBilling({ provider: 'simulated', start: '2026-03-01T10:00:00.000Z' });
    const made = await paidReader(h);
    const lost = await paidReader(h);
    const failed = await paidReader(h);
    h.clock.advance(2 * DAY);
    for (const paid of [made, lost, failed]) await pendingRecord(h, paid);
    const madeRefund = await refundAtRazorpay(h, made.paymentId, made.amount);
    const failedRefund = await refundAtRazorpay(h, failed.paymentId, failed.amount);
    await h.store
      .collection(SIMULATED_REFUNDS)
      .updateOne({ _id: failedRefund.id }, { $set: { status: 'failed' } });

    // A refund pending for less than the settle delay belongs to the request still asking: left alone.
    const early = await reconcile(h);
    expect(early).toEqual({
      status: 200,
      body: { status: true, refunded: [], failed: [], pending: [], retried: [] },
    });

    h.clock.advance(3 * MINUTE);
    const run = await reconcile(h);
    expect(run.status).toBe(200);
    expect(new Set(run.body.refunded)).toEqual(new Set([made.paymentId, lost.paymentId]));
    expect(run.body).toMatchObject({ failed: [failed.paymentId], pending: [], retried: [lost.paymentId] });

    const ledger = h.store.collection<RefundRecord>(REFUNDS);
    expect(await ledger.findOne({ _id: made.paymentId })).toMatchObject({
      state: 'done',
      refundId: madeRefund.id,
      refundedAmount: made.amount,
    });
    // Razorpay still has exactly one refund of each payment: the found one was not asked again.
    expect((await refundsAtRazorpay(h, made.paymentId)).map((r) => r.id)).toEqual([madeRefund.id]);
    const lostRefunds = await refundsAtRazorpay(h, lost.paymentId);
    expect(lostRefunds).toHaveLength(1);
    expect(lostRefunds[0]).toMatchObject({
      amount: lost.amount,
      receipt: refundReceipt(lost.paymentId),
      idempotency_key: refundIdempotencyKey(lost.paymentId),
    });
    expect(await ledger.findOne({ _id: lost.paymentId })).toMatchObject({
      state: 'done',
      refundId: lostRefunds[0]!.id,
      retries: 1,
    });
    expect(await ledger.findOne({ _id: failed.paymentId })).toMatchObject({
      state: 'failed',
      error: `Razorpay reports the refund ${failedRefund.id} as failed`,
    });
    expect(await refundsAtRazorpay(h, failed.paymentId)).toHaveLength(1);

    // Each cancel is finished on the subscription as the reader's request would have: refund recorded, premium ended.
    for (const paid of [made, lost]) {
      const types = await eventTypes(h, paid.subscriptionId);
      expect(types.filter((t) => t === BillingEvents.PaymentRefunded.type)).toHaveLength(1);
      expect(types.filter((t) => t === BillingEvents.SubscriptionCancelled.type)).toHaveLength(1);
      expect(await h.subscription(paid.subscriptionId)).toMatchObject({ entitled: false });
    }
    const history = await h.post('/api/payment/history', { token: made.user.token });
    expect(history.body.history.map((e: any) => [e.kind, e.amount])).toEqual([
      ['refund', -made.amount],
      ['payment', made.amount],
    ]);
    const failedTypes = await eventTypes(h, failed.subscriptionId);
    expect(failedTypes).not.toContain(BillingEvents.PaymentRefunded.type);
    expect(failedTypes.filter((t) => t === BillingEvents.SubscriptionCancelled.type)).toHaveLength(1);

    // A second run finds nothing to do and changes nothing.
    const streamLengths = async () =>
      Promise.all([made, lost, failed].map(async (p) => (await eventTypes(h!, p.subscriptionId)).length));
    const lengthsBefore = await streamLengths();
    h.clock.advance(15 * MINUTE);
    expect((await reconcile(h)).body).toEqual({
      status: true,
      refunded: [],
      failed: [],
      pending: [],
      retried: [],
    });
    expect(await refundsAtRazorpay(h, lost.paymentId)).toHaveLength(1);
    expect(await streamLengths()).toEqual(lengthsBefore);
  });

  it('is refused without the internal credential', async () => {
    h = await startBilling({ provider: 'simulated' });
    const res = await fetch(`${h.url}/internal/refunds/reconcile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });
});

/** The refund ledger alone on a store and a provider, with short waits, on the test's clock. */
const ledgerOn = (
  store: ReturnType<typeof createEmbeddedStore>,
  provider: PaymentProvider,
  clock: () => Date,
) =>
  createRefunds({
    store,
    provider,
    log: createLogger('refunds-test', 'silent'),
    clock,
    waitMs: 50,
    pollMs: 10,
  });

describe('refund reconciliation: a retry without an answer', () => {
  it('asks Razorpay at most once more, then fails the refund for a refund by hand (never a second refund)', async () => {
    const store = createEmbeddedStore({});
    let now = new Date('2026-03-01T10:00:00.000Z');
    const asked: { paymentId: string; key: string | undefined }[] = [];
    const provider = {
      kind: 'razorpay',
      async refundPayment(paymentId: string, _amount: number, options: { idempotencyKey?: string } = {}) {
        asked.push({ paymentId, key: options.idempotencyKey });
        throw new ProviderError('Razorpay could not refund a payment: timeout of 15000ms exceeded');
      },
      fetchRefunds: async () => [],
    } as unknown as PaymentProvider;
    const refunds = ledgerOn(store, provider, () => now);
    const input = { paymentId: 'pay_000000000000077', amount: 250000, subscriptionId: 'sub_7', userId: 'u7' };

    // The cancel's own ask times out: the record stays pending (Razorpay may have refunded).
    expect(await refunds.refundOnce(input)).toBeNull();
    const ledger = store.collection<RefundRecord>(REFUNDS);
    expect(await ledger.findOne({ _id: input.paymentId })).toMatchObject({
      state: 'pending',
      lastError: 'Razorpay could not refund a payment: timeout of 15000ms exceeded',
    });

    now = new Date(now.getTime() + 5 * MINUTE);
    const first = await refunds.reconcile();
    expect(first).toMatchObject({ retried: [input.paymentId], pending: [input.paymentId], failed: [] });
    expect(await ledger.findOne({ _id: input.paymentId })).toMatchObject({ state: 'pending', retries: 1 });

    now = new Date(now.getTime() + 15 * MINUTE);
    const second = await refunds.reconcile();
    expect(second.retried).toEqual([]);
    expect(second.failed.map((f) => f.paymentId)).toEqual([input.paymentId]);
    expect(await ledger.findOne({ _id: input.paymentId })).toMatchObject({
      state: 'failed',
      error:
        'Razorpay has no refund of this payment after a retry (Razorpay could not refund a payment: timeout of 15000ms exceeded)',
    });
    // Two asks in all (the cancel's and one retry), both with the payment's one idempotency key.
    expect(asked).toEqual([
      { paymentId: input.paymentId, key: refundIdempotencyKey(input.paymentId) },
      { paymentId: input.paymentId, key: refundIdempotencyKey(input.paymentId) },
    ]);
    await store.close();
  });
});

describe('refund reconciliation with the razorpay client (fake Razorpay API)', () => {
  it('a refund whose answer timed out stays pending, then is found in the refund list and recorded, never made twice', async () => {
    const api = await startFakeRazorpayApi();
    const store = createEmbeddedStore({});
    let now = new Date('2026-03-01T10:00:00.000Z');
    const provider = createRazorpayProvider({
      keyId: api.keyId,
      keySecret: api.keySecret,
      apiUrl: api.url,
      timeoutMs: 150,
    });
    const refunds = ledgerOn(store, provider, () => now);
    const input = { paymentId: 'pay_00000000000091', amount: 250000, subscriptionId: 'sub_9', userId: 'u9' };
    api.delayRefunds(400); // Razorpay makes the refund, but answers after the client gave up

    expect(await refunds.refundOnce(input)).toBeNull();
    const ledger = store.collection<RefundRecord>(REFUNDS);
    expect(await ledger.findOne({ _id: input.paymentId })).toMatchObject({ state: 'pending' });
    expect((await ledger.findOne({ _id: input.paymentId }))?.lastError).toContain('timeout');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(api.refunds).toHaveLength(1);

    api.delayRefunds(0);
    now = new Date(now.getTime() + 5 * MINUTE);
    const report = await refunds.reconcile();
    expect(report.refunded.map((r) => r.refundId)).toEqual([api.refunds[0]!.id]);
    expect(report.retried).toEqual([]);
    expect(await ledger.findOne({ _id: input.paymentId })).toMatchObject({
      state: 'done',
      refundId: api.refunds[0]!.id,
      refundedAmount: 250000,
    });
    expect(api.calls.filter((c) => c.path === `/v1/payments/${input.paymentId}/refund`)).toHaveLength(1);
    expect(api.refunds).toHaveLength(1);
    await store.close();
    await api.close();
  });
});
