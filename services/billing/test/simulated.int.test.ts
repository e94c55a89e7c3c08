import { BillingEvents } from '@nudge/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { type BillingHarness, DAY, startBilling } from './harness';

let h: BillingHarness;
afterEach(async () => {
  await h?.close();
});

/** Submits the simulated checkout form as a browser would (no redirect following). */
const submit = (base: string, path: string, outcome: string) =>
  fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });

describe('the simulated checkout (embedded topology, no Razorpay keys)', () => {
  it('pays through the page: signed webhooks reach the verification endpoint and the subscription is active', async () => {
    h = await startBilling({ provider: 'simulated', start: '2026-03-01T10:00:00.000Z' });
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    expect(checkout.status).toBe(200);
    const subscriptionId = checkout.body.subscription.subscriptionId;
    expect(checkout.body).toMatchObject({
      status: true,
      subscription: { key: 'rzp_test_simulated', subscriptionId: expect.stringMatching(/^sub_/) },
      checkoutUrl: expect.stringMatching(
        new RegExp(`^/api/payment/simulated/${subscriptionId}\\?t=[\\w-]{43}$`),
      ),
    });

    const page = await fetch(h.url + checkout.body.checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`<form method="post" action="${checkout.body.checkoutUrl}">`);
    expect(html).toContain('>Pay ₹2,500</button>');
    expect(html).toContain('>Fail payment</button>');
    expect(html).not.toMatch(/<script/i);

    const paid = await submit(h.url, checkout.body.checkoutUrl, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('/payment-success');

    expect(await h.subscription(subscriptionId)).toMatchObject({
      status: 'active',
      entitled: true,
      startAt: '2026-03-01T10:00:00.000Z',
      endAt: '2027-03-01T10:00:00.000Z',
    });
    const processed = await h.store.collection('processed_webhooks').find({ subscriptionId });
    expect(processed.map((p: any) => p.event).sort()).toEqual([
      'subscription.activated',
      'subscription.authenticated',
      'subscription.charged',
    ]);
    const history = await h.post('/api/payment/history', { token: user.token });
    expect(history.body.history).toEqual([
      expect.objectContaining({
        amount: 250000,
        start: '2026-03-01T10:00:00.000Z',
        end: '2027-03-01T10:00:00.000Z',
      }),
    ]);

    // The form cannot be submitted twice.
    const again = await submit(h.url, checkout.body.checkoutUrl, 'pay');
    expect(again.status).toBe(409);
    expect((await fetch(h.url + checkout.body.checkoutUrl)).status).toBe(409);
  });

  it('fails a payment through the page: payment.failed is recorded, the subscription stays unpaid', async () => {
    h = await startBilling({ provider: 'simulated' });
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    const subscriptionId = checkout.body.subscription.subscriptionId;
    const failed = await submit(h.url, checkout.body.checkoutUrl, 'fail');
    expect(failed.status).toBe(303);
    expect(failed.headers.get('location')).toBe('/payment-failed');
    const sub = await h.subscription(subscriptionId);
    expect(sub).toMatchObject({ status: 'created', entitled: false });
    expect(sub.failedPaymentIds).toHaveLength(1);
    // The reader can still pay the same checkout afterwards.
    expect((await submit(h.url, checkout.body.checkoutUrl, 'pay')).status).toBe(303);
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
  });

  it('answers 404 for an unknown checkout and 400 for a bad outcome', async () => {
    h = await startBilling({ provider: 'simulated' });
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    expect((await submit(h.url, checkout.body.checkoutUrl, 'steal')).status).toBe(400);
    expect((await fetch(`${h.url}/api/payment/simulated/..%2F..%2Fetc`)).status).toBe(400);
  });

  it('belongs to the reader who opened it: without the link token nobody else can open or complete it', async () => {
    h = await startBilling({ provider: 'simulated' });
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    const subscriptionId = checkout.body.subscription.subscriptionId;
    const bare = `/api/payment/simulated/${subscriptionId}`;
    for (const path of [bare, `${bare}?t=forged`, `${bare}?t=${'A'.repeat(43)}`]) {
      expect((await fetch(h.url + path)).status, path).toBe(403);
      expect((await submit(h.url, path, 'pay')).status, path).toBe(403);
    }
    expect(await h.subscription(subscriptionId)).toMatchObject({ status: 'created', entitled: false });
    // An unknown checkout with a token made for it is still unknown.
    expect(
      (await submit(h.url, checkout.body.checkoutUrl.replace(subscriptionId, 'sub_unknown0000001'), 'pay'))
        .status,
    ).toBe(403);
  });

  it('renews a year later on its own schedule, and a restart is authorised on the same page', async () => {
    h = await startBilling({ provider: 'simulated', start: '2026-03-01T10:00:00.000Z' });
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    const first = checkout.body.subscription.subscriptionId;
    await submit(h.url, checkout.body.checkoutUrl, 'pay');

    // The renewal workflow keeps time for the simulated Razorpay: after the notice, its next step is the charge at
    // endAt, where Razorpay would charge by itself.
    const step = async (subscriptionId: string, kind: 'notice' | 'charge' | 'expiry', endAt: string) =>
      h.service.renewalStep({ subscriptionId, kind, endAt, at: h.clock.now().toISOString() });
    /** The notice 7 days before endAt; the plan after it is the charge at endAt. */
    const noticeThenCharge = async (endAt: string) => {
      h.clock.set(new Date(Date.parse(endAt) - 7 * DAY));
      expect((await step(first, 'notice', endAt)).plan.next).toEqual({ kind: 'charge', at: endAt });
    };
    await noticeThenCharge('2027-03-01T10:00:00.000Z');
    h.clock.set('2027-03-01T09:59:59.000Z');
    expect((await step(first, 'charge', '2027-03-01T10:00:00.000Z')).outcome).toBe('nothing');
    expect(await h.subscription(first)).toMatchObject({ paidCount: 1, endAt: '2027-03-01T10:00:00.000Z' });
    h.clock.set('2027-03-01T10:00:00.000Z');
    const charged = await step(first, 'charge', '2027-03-01T10:00:00.000Z');
    expect(charged.outcome).toBe('charged');
    expect(charged.plan.next).toEqual({ kind: 'notice', at: '2028-02-23T10:00:00.000Z' });
    expect(await h.subscription(first)).toMatchObject({
      entitled: true,
      paidCount: 2,
      endAt: '2028-03-01T10:00:00.000Z',
    });
    const types = (await h.events.readStream(`subscription-${first}`)).map((e) => e.type);
    expect(types).toContain(BillingEvents.SubscriptionRenewed.type);
    // The same step again (a retry) charges nothing more.
    expect((await step(first, 'charge', '2027-03-01T10:00:00.000Z')).outcome).toBe('nothing');
    expect(await h.subscription(first)).toMatchObject({ paidCount: 2 });

    // Renewal off after the refund window, then back on through a new subscription authorised on the page.
    h.clock.advance(10 * DAY);
    const cancel = await h.post('/api/payment/cancel', { token: user.token });
    expect(cancel.body.message).toBe(
      'You will not be charged again on 1 March 2028 because subscription renewal is disabled.',
    );
    const restart = await h.post('/api/payment/restart', { token: user.token });
    const next = restart.body.subscription.subscriptionId;
    expect(restart.body.checkoutUrl).toMatch(new RegExp(`^/api/payment/simulated/${next}\\?t=`));
    const page = await (await fetch(h.url + restart.body.checkoutUrl)).text();
    expect(page).toContain('Authorise ₹2,500 renewal');
    expect(page).toContain('1 March 2028');
    const authorised = await submit(h.url, restart.body.checkoutUrl, 'pay');
    expect(authorised.headers.get('location')).toBe('/upgrade');
    expect((await h.post('/api/payment/details', { token: user.token })).body.details).toMatchObject({
      subscriptionId: first,
      renewal: 'Active',
      nextSubscriptionId: next,
    });
    expect(await h.subscription(next)).toMatchObject({ status: 'authenticated', entitled: false });

    // The restart is charged at its start (the old endAt), by the old subscription's charge step: the old one is
    // cancelled at cycle end and the new one charged, both at endAt.
    await noticeThenCharge('2028-03-01T10:00:00.000Z');
    h.clock.set('2028-03-01T10:00:00.000Z');
    expect((await step(first, 'charge', '2028-03-01T10:00:00.000Z')).outcome).toBe('charged');
    expect(await h.subscription(first)).toMatchObject({ status: 'cancelled', entitled: true });
    expect(await h.subscription(next)).toMatchObject({
      status: 'active',
      entitled: true,
      startAt: '2028-03-01T10:00:00.000Z',
      endAt: '2029-03-01T10:00:00.000Z',
    });
    expect((await h.service.renewalPlan(first)).next).toEqual({
      kind: 'expiry',
      at: '2028-03-03T10:00:00.000Z',
    });
    h.clock.set('2028-03-03T10:00:00.000Z');
    expect((await step(first, 'expiry', '2028-03-01T10:00:00.000Z')).outcome).toBe('expired');
    expect(await h.subscription(first)).toMatchObject({ entitled: false });
    expect((await h.post('/api/payment/details', { token: user.token })).body.details).toMatchObject({
      subscriptionId: next,
      renewal: 'Active',
      endAt: '2029-03-01T10:00:00.000Z',
    });
  });

  it('does not exist with a real provider configured', async () => {
    h = await startBilling({ provider: 'razorpay' });
    const user = await h.user();
    const checkout = await h.post('/api/payment/checkout', { token: user.token });
    const id = checkout.body.subscription.subscriptionId;
    expect((await fetch(`${h.url}/api/payment/simulated/${id}?t=x`)).status).toBe(404);
    expect((await submit(h.url, `/api/payment/simulated/${id}?t=x`, 'pay')).status).toBe(404);
  });
});
