import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BillingEvents } from '@nudge/contracts';
import { createEmbeddedStore, createLogger, type DocumentStore } from '@nudge/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BILLING_INTERNAL_TOKEN,
  type BillingHarness,
  DAY,
  startBilling,
  subscribe,
} from '../../services/billing/test/harness';
import { createActivities, createInternalCall } from '../src/activities';
import { createEmbeddedScheduler } from '../src/scheduler/embedded';
import { createEmbeddedRenewals, type EmbeddedRenewals } from '../src/scheduler/renewals';

// The standalone path of the renewal workflows, for real: billing (HTTP, its event store, its capture outbox) hands
// each subscription's plan to the embedded adapter's durable timers; the embedded scheduler fires the due ones
// through the same renewalStep activity the Temporal worker runs. One controllable clock for both.

const END = '2027-03-01T10:00:00.000Z';
const NEXT_END = '2028-03-01T10:00:00.000Z';
const at = (deltaMs: number, end = END) => new Date(Date.parse(end) + deltaMs).toISOString();
const log = createLogger('renewals-test', 'silent');

let dir: string;
let store: DocumentStore;
let renewals: EmbeddedRenewals;
let h: BillingHarness;
/** Makes the next steps fail after billing did them (a crash before the timer is saved). */
let crashAfterStep = false;

const openRenewals = () => {
  store = createEmbeddedStore({ dir: join(dir, 'workflows') });
  const activities = createActivities({
    call: createInternalCall({ serviceUrls: { billing: h.url }, internalToken: BILLING_INTERNAL_TOKEN }),
    mail: { send: async () => undefined },
    whatsapp: { send: async () => undefined },
    trackingSecret: Buffer.alloc(32),
    publicUrl: 'http://nudge.test',
    log,
    clock: () => h.clock.now(),
  });
  renewals = createEmbeddedRenewals({
    store,
    log,
    activities: {
      async renewalStep(input) {
        const result = await activities.renewalStep(input);
        if (crashAfterStep) throw new Error('the process died here');
        return result;
      },
    },
  });
  return renewals.ensureIndexes();
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nudge-renewals-'));
  h = await startBilling({
    start: '2026-03-01T10:00:00.000Z',
    renewals: { planChanged: (plan) => renewals.planChanged(plan) },
  });
  crashAfterStep = false;
  await openRenewals();
});
afterEach(async () => {
  await h.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The clock moves to `iso`; the scheduler fires what is due then. */
const tick = async (iso: string) => {
  h.clock.set(iso);
  return renewals.runDue(new Date(iso));
};
/** The renewal notices to this reader (the payment's receipt aside). */
const notices = async (to: string) =>
  (await h.outbox.list()).filter((m) => m.to === to && !m.idempotencyKey?.startsWith('receipt-'));
const expiredEvents = async (id: string) =>
  (await h.events.readStream(`subscription-${id}`)).filter(
    (e) => e.type === BillingEvents.SubscriptionExpired.type,
  );

describe('renewal workflows on the embedded scheduler (controllable clock)', () => {
  it('renewal on: one notice at endAt - 7 days with the next charge, expiry at endAt + the grace period', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect(await renewals.timer(subscriptionId)).toEqual({
      subscriptionId,
      endAt: END,
      next: { kind: 'notice', at: at(-7 * DAY) },
    });

    expect(await tick(at(-7 * DAY - 60_000))).toMatchObject({ steps: 0 });
    expect(await notices(user.email)).toEqual([]);
    expect(await tick(at(-7 * DAY))).toMatchObject({ steps: 1, noticesSent: 1 });
    expect(await tick(at(-6 * DAY))).toMatchObject({ steps: 0 });
    const mails = await notices(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Nudge: your premium renews on 1 March 2027');
    expect(mails[0]?.text).toContain('Your subscription will renew on 1 March 2027. We will charge ₹2500');

    expect((await renewals.timer(subscriptionId))?.next).toEqual({ kind: 'expiry', at: at(2 * DAY) });
    await tick(at(0));
    await tick(at(2 * DAY - 1000));
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect(await tick(at(2 * DAY))).toMatchObject({ steps: 1, expired: 1 });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
    expect(await renewals.timer(subscriptionId)).toBeNull();
    await tick(at(30 * DAY));
    expect(await expiredEvents(subscriptionId)).toHaveLength(1);
    expect(await notices(user.email)).toHaveLength(1);
  });

  it('a renewal webhook moves both the notice and the expiry to the next endAt', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    await tick(at(-7 * DAY));
    h.clock.set(at(3600_000));
    await h.deliver(h.renewal(subscriptionId, user.userId, new Date(END), 2));
    expect(await renewals.timer(subscriptionId)).toEqual({
      subscriptionId,
      endAt: NEXT_END,
      next: { kind: 'notice', at: at(-7 * DAY, NEXT_END) },
    });
    expect(await tick(at(3 * DAY))).toMatchObject({ steps: 0 });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true, endAt: NEXT_END });

    expect(await tick(at(-7 * DAY, NEXT_END))).toMatchObject({ noticesSent: 1 });
    const mails = await notices(user.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Nudge: your premium renews on 1 March 2027',
      'Nudge: your premium renews on 1 March 2028',
    ]);
  });

  it('a cancel changes the notice text; premium then ends at endAt exactly', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });
    await tick(at(-7 * DAY));
    const [mail, more] = await notices(user.email);
    expect(more).toBeUndefined();
    expect(mail?.subject).toBe('Nudge: your premium ends on 1 March 2027');
    expect(mail?.text).toContain('You will not be charged again on 1 March 2027');
    expect(await tick(at(-1000))).toMatchObject({ steps: 0 });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect(await tick(at(0))).toMatchObject({ expired: 1 });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
  });

  it('a restart after a crash catches up and does not send or expire twice', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    // Down from before the notice until two days before endAt: the notice goes out late, once.
    crashAfterStep = true;
    await expect(tick(at(-2 * DAY))).rejects.toThrow('the process died here');
    expect(await notices(user.email)).toHaveLength(1);
    expect((await renewals.timer(subscriptionId))?.next?.kind).toBe('notice'); // the answer was not saved

    await store.close();
    crashAfterStep = false;
    await openRenewals();
    expect(await tick(at(-2 * DAY))).toMatchObject({ steps: 1, noticesSent: 0 });
    expect(await notices(user.email)).toHaveLength(1);

    crashAfterStep = true;
    await expect(tick(at(3 * DAY))).rejects.toThrow('the process died here');
    await store.close();
    crashAfterStep = false;
    await openRenewals();
    // The expiry itself told the timer it is done (billing's signal), so nothing is left to run again.
    expect(await tick(at(3 * DAY))).toMatchObject({ expired: 0 });
    expect(await expiredEvents(subscriptionId)).toHaveLength(1);
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false });
    expect(await renewals.timer(subscriptionId)).toBeNull();
    expect(await notices(user.email)).toHaveLength(1);
  });

  describe('with the simulated Razorpay (standalone): the renewal charged at endAt, as Razorpay would', () => {
    /** A billing on the simulated Razorpay instead of the Razorpay API, and a reader who paid on its checkout. */
    const simulatedReader = async () => {
      await h.close();
      h = await startBilling({
        provider: 'simulated',
        start: '2026-03-01T10:00:00.000Z',
        renewals: { planChanged: (plan) => renewals.planChanged(plan) },
      });
      await store.close();
      await openRenewals(); // its activities call the new billing
      const user = await h.user();
      const checkout = await h.post('/api/payment/checkout', { token: user.token });
      const subscriptionId: string = checkout.body.subscription.subscriptionId;
      for (const event of (await h.simulated?.complete(subscriptionId, 'pay')) ?? [])
        expect((await h.deliver(event)).status).toBe(200);
      return { user, subscriptionId };
    };
    const payments = (subscriptionId: string) =>
      h.store
        .collection<{ _id: string; created_at: number }>('simulated_razorpay_payments')
        .find({ subscription_id: subscriptionId, status: 'captured' }, { sort: { created_at: 1 } });

    it('renewal on: the charge step at endAt renews; the expiry at endAt + grace finds it renewed', async () => {
      const { user, subscriptionId } = await simulatedReader();
      expect(await tick(at(-7 * DAY))).toMatchObject({ steps: 1, noticesSent: 1 });
      expect(await renewals.timer(subscriptionId)).toEqual({
        subscriptionId,
        endAt: END,
        next: { kind: 'charge', at: END },
      });
      expect(await tick(at(-60_000))).toMatchObject({ steps: 0 });
      expect(await h.subscription(subscriptionId)).toMatchObject({ paidCount: 1, endAt: END });

      expect(await tick(at(0))).toMatchObject({ steps: 1, charged: 1, expired: 0 });
      expect(await h.subscription(subscriptionId)).toMatchObject({
        entitled: true,
        paidCount: 2,
        endAt: NEXT_END,
      });
      // Razorpay's charge and its webhook at endAt, not 48 hours later.
      expect((await payments(subscriptionId)).map((p) => p.created_at * 1000)).toEqual([
        Date.parse('2026-03-01T10:00:00.000Z'),
        Date.parse(END),
      ]);
      const renewed = (await h.events.readStream(`subscription-${subscriptionId}`)).filter(
        (e) => e.type === BillingEvents.SubscriptionRenewed.type,
      );
      expect(renewed.map((e) => e.occurredAt)).toEqual([END]);
      expect(await renewals.timer(subscriptionId)).toEqual({
        subscriptionId,
        endAt: NEXT_END,
        next: { kind: 'notice', at: at(-7 * DAY, NEXT_END) },
      });

      // Where the expiry would have been (endAt + 48 h): premium continues, nothing expires, nothing more is charged.
      expect(await tick(at(2 * DAY))).toMatchObject({ steps: 0 });
      expect(await expiredEvents(subscriptionId)).toEqual([]);
      expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true, paidCount: 2 });
      expect(await notices(user.email)).toHaveLength(1);
    });

    it('a restart authorised after renewal off is charged at its start (the old endAt), not at the old expiry', async () => {
      const { user, subscriptionId: first } = await simulatedReader();
      h.clock.advance(10 * DAY);
      expect((await h.post('/api/payment/cancel', { token: user.token })).status).toBe(200);
      const restart = await h.post('/api/payment/restart', { token: user.token });
      const next: string = restart.body.subscription.subscriptionId;
      for (const event of (await h.simulated?.complete(next, 'pay')) ?? [])
        expect((await h.deliver(event)).status).toBe(200);
      expect(await h.subscription(next)).toMatchObject({ status: 'authenticated', entitled: false });

      await tick(at(-7 * DAY));
      expect((await notices(user.email)).map((m) => m.subject)).toEqual([
        'Nudge: your premium renews on 1 March 2027',
      ]);
      expect((await renewals.timer(first))?.next).toEqual({ kind: 'charge', at: END });
      expect(await tick(at(0))).toMatchObject({ charged: 1, expired: 0 });
      expect(await h.subscription(next)).toMatchObject({
        status: 'active',
        entitled: true,
        startAt: END,
        endAt: NEXT_END,
      });
      expect((await payments(next)).map((p) => p.created_at * 1000)).toEqual([Date.parse(END)]);
      expect(await h.subscription(first)).toMatchObject({ status: 'cancelled', entitled: true });
      // The old subscription still ends after the grace period; the reader stays premium through the new one.
      expect(await tick(at(2 * DAY))).toMatchObject({ expired: 1 });
      expect(await h.subscription(first)).toMatchObject({ entitled: false });
      expect((await h.post('/api/payment/details', { token: user.token })).body.details).toMatchObject({
        subscriptionId: next,
        endAt: NEXT_END,
      });
    });
  });

  it('the embedded scheduler runs the due renewal steps after its reminder slots', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.set(at(-7 * DAY));
    const scheduler = createEmbeddedScheduler({
      store,
      activities: {
        planPages: async () => ({ ends: [], next: null }),
        sendPage: async () => {
          throw new Error('an empty slot has no page');
        },
      },
      renewals,
      log,
      clock: () => h.clock.now(),
      latenessMs: 2 * 3600_000,
      batchSize: 10,
    });
    await scheduler.runDue();
    await scheduler.stop();
    expect(await notices(user.email)).toHaveLength(1);
    expect((await renewals.timer(subscriptionId))?.next?.kind).toBe('expiry');
  });
});
