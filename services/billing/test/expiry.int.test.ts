import { BillingEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BillingHarness, DAY, startBilling, subscribe } from './harness';

let h: BillingHarness;
beforeEach(async () => {
  h = await startBilling({ start: '2026-03-01T10:00:00.000Z' });
});
afterEach(async () => {
  await h.close();
});

const END = '2027-03-01T10:00:00.000Z';
const at = (iso: string, deltaMs = 0) => new Date(Date.parse(iso) + deltaMs);
const expiredEvents = async (id: string) =>
  (await h.events.readStream(`subscription-${id}`)).filter(
    (e) => e.type === BillingEvents.SubscriptionExpired.type,
  );

describe('expireDueSubscriptions(now): premium ends at endAt without any webhook', () => {
  it('ends a subscription with renewal off exactly at endAt, once', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });

    expect(await h.service.expireDueSubscriptions(at(END, -1000))).toEqual([]);
    expect(await h.service.expireDueSubscriptions(at(END))).toEqual([subscriptionId]);
    expect(await h.service.expireDueSubscriptions(at(END, DAY))).toEqual([]);
    const expired = await expiredEvents(subscriptionId);
    expect(expired).toHaveLength(1);
    expect(expired[0]!.data).toEqual({ userId: user.userId, subscriptionId, endAt: END });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
    const details = await h.post('/api/payment/details', { token: user.token });
    expect(details.body.details).toMatchObject({ status: 'expired', renewal: 'Disabled', endAt: END });
  });

  it('gives a subscription that should renew 48 hours for the charge to arrive', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect(await h.service.expireDueSubscriptions(at(END, 47 * 3600_000))).toEqual([]);
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect(await h.service.expireDueSubscriptions(at(END, 48 * 3600_000))).toEqual([subscriptionId]);
  });

  it('a renewal charge within the grace period keeps premium; after expiry a charge brings it back', async () => {
    const a = await h.user();
    const b = await h.user();
    const first = await subscribe(h, a);
    const second = await subscribe(h, b);
    h.clock.set(at(END, 3600_000));
    await h.deliver(h.renewal(first.subscriptionId, a.userId, new Date(END), 2));
    expect(await h.service.expireDueSubscriptions(at(END, 3 * DAY))).toEqual([second.subscriptionId]);
    expect(await h.subscription(first.subscriptionId)).toMatchObject({ entitled: true });

    h.clock.set(at(END, 4 * DAY));
    await h.deliver(h.renewal(second.subscriptionId, b.userId, new Date(END), 2));
    const events = (await h.events.readStream(`subscription-${second.subscriptionId}`)).map((e) => e.type);
    expect(events.filter((t) => t === BillingEvents.SubscriptionActivated.type)).toHaveLength(2);
    expect(await h.subscription(second.subscriptionId)).toMatchObject({ entitled: true });
  });

  it("is what the renewal workflow's expiry step runs", async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });
    const expire = (iso: Date) =>
      h.service.renewalStep({ subscriptionId, kind: 'expiry', endAt: END, at: iso.toISOString() });
    expect((await expire(at(END, -60_000))).outcome).toBe('nothing');
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect((await expire(at(END, 60_000))).outcome).toBe('expired');
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false });
  });
});
