import { BillingEvents } from '@nudge/contracts';
import { createEmbeddedStore, createLogger } from '@nudge/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRefunds, REFUNDS } from '../src/app/refunds';
import { type PaymentProvider, ProviderError } from '../src/infra/payment-provider';
import { type BillingHarness, DAY, startBilling, subscribe } from './harness';

let h: BillingHarness;
beforeEach(async () => {
  h = await startBilling({ start: '2026-03-01T10:00:00.000Z' });
});
afterEach(async () => {
  await h.close();
});

const REFUNDED = 'Your subscription has been cancelled and a refund of ₹2500 has been issued.';

describe('refund idempotency across billing instances', () => {
  it('two pods cancelling the same subscription within the refund window at once: Razorpay refunds once', async () => {
    const pod2 = await h.replica();
    const user = await h.user();
    const { subscriptionId, payment } = await subscribe(h, user);
    h.clock.advance(3 * DAY);
    h.api!.delayRefunds(300); // both requests are inside the cancel when the first refund answers

    const [one, two] = await Promise.all([
      h.post('/api/payment/cancel', { token: user.token }),
      pod2.post('/api/payment/cancel', { token: user.token }),
    ]);

    const refundCalls = h.api!.calls.filter((c) => c.path === `/v1/payments/${payment.id}/refund`);
    expect(refundCalls).toHaveLength(1);
    expect(h.api!.refunds).toHaveLength(1);
    // Both readers' screens say what happened: cancelled with the refund (or, having lost the race entirely,
    // that there is nothing left to cancel). Never a 500.
    for (const reply of [one, two]) {
      expect([200, 409]).toContain(reply.status);
      if (reply.status === 200) {
        expect(reply.body.message).toBe(REFUNDED);
        expect(reply.body.details).toMatchObject({ subscriptionId, status: 'cancelled' });
      } else {
        expect(reply.body).toEqual({ status: false, message: 'You have no active subscription to cancel' });
      }
    }
    expect([one, two].some((r) => r.status === 200)).toBe(true);

    // The log records one refund and one cancel; the ledger keeps the provider's refund.
    const stream = await h.events.readStream(`subscription-${subscriptionId}`);
    expect(stream.filter((e) => e.type === BillingEvents.PaymentRefunded.type)).toHaveLength(1);
    expect(stream.filter((e) => e.type === BillingEvents.SubscriptionCancelled.type)).toHaveLength(1);
    expect(await h.store.collection(REFUNDS).findOne({ _id: payment.id })).toMatchObject({
      state: 'done',
      refundId: h.api!.refunds[0]!.id,
      refundedAmount: 250000,
    });
    const history = await h.post('/api/payment/history', { token: user.token });
    expect(history.body.history.map((e: any) => [e.kind, e.amount])).toEqual([
      ['refund', -250000],
      ['payment', 250000],
    ]);
  });

  it('a refund the provider refused is never asked again, by this pod or another: the ledger says failed', async () => {
    const store = createEmbeddedStore({});
    let calls = 0;
    const provider = {
      async refundPayment() {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
        // A refusal (4xx) decides it; an outage or a timeout would leave the record pending for the reconciliation.
        throw new ProviderError(
          'Razorpay could not refund a payment: The payment has been fully refunded',
          400,
        );
      },
    } as unknown as PaymentProvider;
    const log = createLogger('refunds-test', 'silent');
    const pods = [1, 2].map(() =>
      createRefunds({ store, provider, log, clock: () => new Date(), pollMs: 10 }),
    );
    const input = { paymentId: 'pay_000000000000001', amount: 250000, subscriptionId: 'sub_1', userId: 'u1' };

    expect(await Promise.all(pods.map((pod) => pod.refundOnce(input)))).toEqual([null, null]);
    expect(await pods[1]!.refundOnce(input)).toBeNull();
    expect(calls).toBe(1);
    expect(await store.collection(REFUNDS).findOne({ _id: input.paymentId })).toMatchObject({
      state: 'failed',
      error: 'Razorpay could not refund a payment: The payment has been fully refunded',
    });
    await store.close();
  });
});
