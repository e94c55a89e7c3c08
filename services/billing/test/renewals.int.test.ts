import type { RenewalPlan } from '@nudge/contracts';
import { internalPost } from '@nudge/platform/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BILLING_INTERNAL_TOKEN, type BillingHarness, DAY, startBilling, subscribe } from './harness';

// Renewals as a workflow per subscription: billing hands each subscription's workflow its plan (the notice 7 days
// before endAt, then the expiry after the grace period) on every change, and does each step when the workflow
// calls POST /internal/subscriptions/renewal-step. (The embedded scheduler's timers: workflows/test.)

let h: BillingHarness;
let plans: RenewalPlan[];
/** Temporal (or the embedded store) not answering: the port throws. */
let down = false;
beforeEach(async () => {
  plans = [];
  down = false;
  h = await startBilling({
    start: '2026-03-01T10:00:00.000Z',
    renewals: {
      planChanged: async (plan) => {
        if (down) throw new Error('connection refused');
        plans.push(plan);
      },
    },
  });
});
afterEach(async () => {
  await h.close();
});

const END = '2027-03-01T10:00:00.000Z';
const at = (deltaMs: number) => new Date(Date.parse(END) + deltaMs).toISOString();
const step = (
  subscriptionId: string,
  kind: 'notice' | 'expiry',
  iso: string,
  credential: string | null = BILLING_INTERNAL_TOKEN,
) =>
  internalPost(
    h.url,
    '/internal/subscriptions/renewal-step',
    { subscriptionId, kind, endAt: END, at: iso },
    credential,
  );
/** The notices to this reader (receipts of payments aside). */
const notices = async (to: string) =>
  (await h.outbox.list()).filter((m) => m.to === to && !m.idempotencyKey?.startsWith('receipt-'));
const lastPlan = (id: string) => plans.filter((p) => p.subscriptionId === id).at(-1);

describe('renewal workflow steps (POST /internal/subscriptions/renewal-step)', () => {
  it('checkout and the first charge hand the workflow its plan: the notice 7 days before endAt', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect(plans[0]).toEqual({ subscriptionId, endAt: null, next: null }); // checkout: nothing to wait for yet
    expect(lastPlan(subscriptionId)).toEqual({
      subscriptionId,
      endAt: END,
      next: { kind: 'notice', at: at(-7 * DAY) },
    });
  });

  it('renewal on: one notice with the date and amount of the next charge, then expiry 48 hours after endAt', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    const first = await step(subscriptionId, 'notice', at(-7 * DAY));
    expect(first.body).toEqual({
      status: true,
      outcome: 'notice-sent',
      plan: { subscriptionId, endAt: END, next: { kind: 'expiry', at: at(2 * DAY) } },
    });
    expect((await step(subscriptionId, 'notice', at(-6 * DAY))).body.outcome).toBe('nothing');
    const mails = await notices(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Nudge: your premium renews on 1 March 2027');
    expect(mails[0]?.text).toContain('We will charge ₹2500 for the next year');

    expect((await step(subscriptionId, 'expiry', at(2 * DAY - 1000))).body.outcome).toBe('nothing');
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    const expired = await step(subscriptionId, 'expiry', at(2 * DAY));
    expect(expired.body).toEqual({
      status: true,
      outcome: 'expired',
      plan: { subscriptionId, endAt: END, next: null },
    });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
    expect(lastPlan(subscriptionId)?.next).toBeNull(); // the expiry told the workflow it is done
  });

  it('renewal off: "You will not be charged again"; premium ends at endAt, the workflow told at the cancel', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });
    await step(subscriptionId, 'notice', at(-3 * DAY));
    const [mail] = await notices(user.email);
    expect(mail?.text).toContain('You will not be charged again on 1 March 2027');
    expect(lastPlan(subscriptionId)).toEqual({
      subscriptionId,
      endAt: END,
      next: { kind: 'notice', at: at(-7 * DAY) },
    });
    expect((await h.service.renewalPlan(subscriptionId)).next).toEqual({ kind: 'expiry', at: END });
    expect((await step(subscriptionId, 'expiry', at(-1000))).body.outcome).toBe('nothing');
    expect((await step(subscriptionId, 'expiry', at(0))).body.outcome).toBe('expired');
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
  });

  it('a renewal charge moves the plan to the next endAt; a step planned for the old endAt does nothing', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.set(at(3600_000));
    await h.deliver(h.renewal(subscriptionId, user.userId, new Date(END), 2));
    const next = '2028-03-01T10:00:00.000Z';
    expect(lastPlan(subscriptionId)).toEqual({
      subscriptionId,
      endAt: next,
      next: { kind: 'notice', at: new Date(Date.parse(next) - 7 * DAY).toISOString() },
    });
    expect((await step(subscriptionId, 'notice', at(2 * DAY))).body.outcome).toBe('nothing');
    expect((await step(subscriptionId, 'expiry', at(2 * DAY))).body.outcome).toBe('nothing');
    expect(await notices(user.email)).toEqual([]);
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true, endAt: next });
  });

  it('a notice too late (at or after endAt) is skipped, not sent', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });
    const late = await step(subscriptionId, 'notice', at(0));
    expect(late.body.outcome).toBe('nothing');
    expect(late.body.plan.next).toEqual({ kind: 'expiry', at: END });
    expect(await notices(user.email)).toEqual([]);
  });

  it('a change the workflow was not told of (port down) still answers the reader; the next start resyncs it', async () => {
    down = true;
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect(plans).toEqual([]);
    down = false;
    await h.service.start();
    await vi.waitFor(() =>
      expect(lastPlan(subscriptionId)).toEqual({
        subscriptionId,
        endAt: END,
        next: { kind: 'notice', at: at(-7 * DAY) },
      }),
    );
  });

  it('refuses calls without the credential and bad input, changing nothing', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect((await step(subscriptionId, 'expiry', at(DAY * 3), null)).status).toBe(403);
    const bad = await internalPost(
      h.url,
      '/internal/subscriptions/renewal-step',
      { subscriptionId, kind: 'renew', endAt: END, at: 'next week' },
      BILLING_INTERNAL_TOKEN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: false, message: expect.any(String) });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect(await notices(user.email)).toEqual([]);
  });
});
