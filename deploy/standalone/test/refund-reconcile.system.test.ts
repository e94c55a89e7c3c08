import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedRazorpay, refundIdempotencyKey, refundReceipt } from '@nudge/billing';
import { jsonCall, submitSimulatedCheckout } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';

// Refunds left pending (a cancel that died between the ledger's record and Razorpay's answer) are settled by the
// embedded scheduler's tick, which calls billing's /internal/refunds/reconcile once per run, with the simulated
// Razorpay answering as Razorpay does.

let dataDir: string;
let app: Standalone;

const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await jsonCall(app.url, method, path, body, token);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

async function paidReader(email: string) {
  await ok('POST', '/api/user/auth', { email });
  const { messages } = await ok('GET', '/api/dev/outbox');
  const code = messages.find((m: { to: string }) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
  const { token, user } = await ok('POST', '/api/user/verify', { email, otp: code });
  // Billing learns of the reader from auth's events.
  const deadline = Date.now() + 15_000;
  let checkout = await jsonCall(app.url, 'POST', '/api/payment/checkout', { token });
  while (checkout.status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    checkout = await jsonCall(app.url, 'POST', '/api/payment/checkout', { token });
  }
  expect(checkout.status).toBe(200);
  const paid = await submitSimulatedCheckout(app.url, checkout.body.checkoutUrl);
  expect(paid.status).toBe(303);
  const subscriptionId: string = checkout.body.subscription.subscriptionId;
  const payment = await billingStore()
    .collection<{ _id: string; amount: number }>('simulated_razorpay_payments')
    .findOne({ subscription_id: subscriptionId, status: 'captured' });
  if (!payment) throw new Error('no captured payment');
  return { token: token as string, userId: user._id as string, subscriptionId, payment };
}

const billingStore = () => {
  const store = app.runtimes.billing?.store;
  if (!store) throw new Error('billing runtime not exposed');
  return store;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-refund-reconcile-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: join(dataDir, 'no-web'),
    REMINDER_SCHEDULER: 'off',
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('refund reconciliation in the standalone process (embedded scheduler, simulated Razorpay)', () => {
  it("the scheduler's tick settles pending refunds: one Razorpay made is recorded, one it never got is made once", async () => {
    const made = await paidReader('made@example.com');
    const lost = await paidReader('lost@example.com');
    const ledger = billingStore().collection<{ _id: string; state: string; refundId?: string }>('refunds');
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    for (const reader of [made, lost])
      await ledger.insertOne({
        _id: reader.payment._id,
        subscriptionId: reader.subscriptionId,
        userId: reader.userId,
        amount: reader.payment.amount,
        state: 'pending',
        requestedAt: fiveMinutesAgo,
      } as never);
    // Razorpay received the first refund (our receipt and idempotency key) before the answer was lost.
    const ours = await fetchSimulatedRefundOf(made.payment._id, made.payment.amount);

    await app.reminders.runDue();

    expect(await ledger.findOne({ _id: made.payment._id })).toMatchObject({ state: 'done', refundId: ours });
    expect(await ledger.findOne({ _id: lost.payment._id })).toMatchObject({ state: 'done' });
    const atRazorpay = billingStore().collection<{ _id: string; payment_id: string }>(
      'simulated_razorpay_refunds',
    );
    expect(await atRazorpay.find({ payment_id: made.payment._id })).toHaveLength(1);
    expect(await atRazorpay.find({ payment_id: lost.payment._id })).toHaveLength(1);

    // The readers see the refund in their billing history, and a second tick changes nothing.
    const history = await ok('POST', '/api/payment/history', { token: made.token });
    expect(history.history.map((e: { kind: string }) => e.kind)).toEqual(['refund', 'payment']);
    await app.reminders.runDue();
    expect(await atRazorpay.find({ payment_id: lost.payment._id })).toHaveLength(1);
  }, 120_000);
});

/** The refund the cancel would have asked for, made at the simulated Razorpay through billing's own ledger key. */
async function fetchSimulatedRefundOf(paymentId: string, amount: number): Promise<string> {
  const refund = await createSimulatedRazorpay({ store: billingStore() }).refundPayment(paymentId, amount, {
    receipt: refundReceipt(paymentId),
    idempotencyKey: refundIdempotencyKey(paymentId),
  });
  return refund.id;
}
