import { afterEach, describe, expect, it } from 'vitest';
import { type BillingHarness, DAY, startBilling, subscribe } from './harness';

let h: BillingHarness;
afterEach(async () => {
  await h?.close();
});

describe('the subscriptions read model is a projection of the event store', () => {
  it('dropping it and rebuilding from the events gives the same subscriptions', async () => {
    h = await startBilling({ start: '2026-03-01T10:00:00.000Z' });
    const refunded = await h.user();
    const renewing = await h.user();
    const stopping = await h.user();
    const abandoned = await h.user();
    await subscribe(h, refunded);
    const { subscriptionId, subscription } = await subscribe(h, renewing);
    await subscribe(h, stopping);
    await h.post('/api/payment/checkout', { token: abandoned.token });
    h.clock.advance(3 * DAY);
    await h.post('/api/payment/cancel', { token: refunded.token });
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: stopping.token });
    await h.post('/api/payment/restart', { token: stopping.token });
    const firstEnd = new Date(subscription.current_end! * 1000);
    h.clock.set(firstEnd);
    await h.deliver(h.renewal(subscriptionId, renewing.userId, firstEnd, 2));
    await h.service.expireDueSubscriptions(new Date(firstEnd.getTime() + DAY));

    const subscriptions = h.store.collection('subscriptions');
    const live = await subscriptions.find({}, { sort: { _id: 1 } });
    expect(live).toHaveLength(5);
    await subscriptions.drop();
    expect(await subscriptions.countDocuments({})).toBe(0);
    await h.events.rebuild();
    expect(await subscriptions.find({}, { sort: { _id: 1 } })).toEqual(live);
    const details = await h.post('/api/payment/details', { token: renewing.token });
    expect(details.body.details).toMatchObject({ subscriptionId, renewal: 'Active' });
  });
});
