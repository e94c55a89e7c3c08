import { BillingEvents } from '@nudge/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { type BillingHarness, startBilling } from './harness';

// One reader has at most one live subscription. A checkout opened before and not paid is the one offered again; two
// opened at the same moment (two tabs on two replicas) can both be paid, and then the charge handled second, on
// whichever replica, is refunded and its subscription cancelled: never two subscriptions granting and renewing.
let h: BillingHarness;
afterEach(async () => {
  await h?.close();
});

/** Submits the simulated checkout form as a browser would (no redirect following). */
const pay = (base: string, path: string) =>
  fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'pay' }).toString(),
    redirect: 'manual',
  });

describe('one live subscription per reader (simulated Razorpay)', () => {
  it('a second checkout before paying offers the same subscription, which is paid once', async () => {
    h = await startBilling({ provider: 'simulated', start: '2026-03-01T10:00:00.000Z' });
    const user = await h.user();
    const first = await h.post('/api/payment/checkout', { token: user.token });
    const second = await h.post('/api/payment/checkout', { token: user.token });
    expect(second.status).toBe(200);
    expect(second.body.subscription.subscriptionId).toBe(first.body.subscription.subscriptionId);
    expect(second.body.checkoutUrl).toBe(first.body.checkoutUrl);

    expect((await pay(h.url, first.body.checkoutUrl)).status).toBe(303);
    expect((await pay(h.url, second.body.checkoutUrl)).status).toBe(409);
    expect(await h.store.collection('subscriptions').countDocuments({ userId: user.userId })).toBe(1);
  });

  it('two checkouts opened at once and paid at once on two replicas: one subscription lives, the other is refunded and cancelled', async () => {
    h = await startBilling({ provider: 'simulated', start: '2026-03-01T10:00:00.000Z' });
    const pod2 = await h.replica();
    const user = await h.user();
    // Both checkouts pass the "nothing open yet" check before either subscription exists at the provider.
    const simulated = h.simulated!;
    const create = simulated.createSubscription.bind(simulated);
    let waiting = 0;
    let release = () => {};
    const both = new Promise<void>((resolve) => {
      release = resolve;
    });
    simulated.createSubscription = async (input) => {
      if (++waiting === 2) release();
      await both;
      return create(input);
    };
    const [a, b] = await Promise.all([
      h.post('/api/payment/checkout', { token: user.token }),
      pod2.post('/api/payment/checkout', { token: user.token }),
    ]);
    const ids = [a.body.subscription.subscriptionId, b.body.subscription.subscriptionId];
    expect(new Set(ids).size).toBe(2);

    // Each replica receives the webhooks of the checkout paid through it, at the same moment.
    const paid = await Promise.all([pay(h.url, a.body.checkoutUrl), pay(pod2.url, b.body.checkoutUrl)]);
    expect(paid.map((r) => r.status)).toEqual([303, 303]);

    const subs = await Promise.all(ids.map((id) => h.subscription(id)));
    const kept = subs.filter((s) => s.entitled);
    const refused = subs.filter((s) => !s.entitled);
    expect(kept).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ status: 'cancelled', cancelAtCycleEnd: true });
    expect(refused[0].refunds).toEqual([
      expect.objectContaining({ paymentId: refused[0].payments[0].paymentId, amount: 250000 }),
    ]);
    // Razorpay will not charge it again.
    expect((await simulated.find(refused[0]._id))?.status).toBe('cancelled');
    // Premium was granted once: auth hears of one activation.
    const activations = [];
    for (const id of ids)
      activations.push(
        ...(await h.events.readStream(`subscription-${id}`)).filter(
          (e) => e.type === BillingEvents.SubscriptionActivated.type,
        ),
      );
    expect(activations).toHaveLength(1);

    // The page shows the one that lives; the reader's history shows the refund; one cancel ends it all.
    const details = await h.post('/api/payment/details', { token: user.token });
    expect(details.body.details.subscriptionId).toBe(kept[0]._id);
    const history = await h.post('/api/payment/history', { token: user.token });
    expect(history.body.history.map((e: { amount: number }) => e.amount).sort()).toEqual([
      -250000, 250000, 250000,
    ]);
    expect((await h.post('/api/payment/cancel', { token: user.token })).status).toBe(200);
    const again = await h.post('/api/payment/cancel', { token: user.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You have no active subscription to cancel');
  });
});
