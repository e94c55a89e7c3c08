import { internalPost } from '@nudge/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BILLING_INTERNAL_TOKEN, type BillingHarness, DAY, startBilling, subscribe } from './harness';

// Renewals without a timer of billing's own: the scheduler (embedded, or Temporal) calls
// POST /internal/subscriptions/run-due; a notice 7 days before endAt, expiry after it (with the grace period).

let h: BillingHarness;
beforeEach(async () => {
  h = await startBilling({ start: '2026-03-01T10:00:00.000Z' });
});
afterEach(async () => {
  await h.close();
});

const END = '2027-03-01T10:00:00.000Z';
const at = (deltaMs: number) => new Date(Date.parse(END) + deltaMs).toISOString();
const runDue = (iso: string, credential: string | null = BILLING_INTERNAL_TOKEN, body?: unknown) =>
  internalPost(h.url, '/internal/subscriptions/run-due', body ?? { at: iso }, credential);
const notices = async (to: string) => (await h.outbox.list()).filter((m) => m.to === to);

describe('renewal notices and expiry (POST /internal/subscriptions/run-due)', () => {
  it('renewal on: one notice 7 days ahead with the date and amount of the next charge', async () => {
    const user = await h.user();
    await subscribe(h, user);
    expect((await runDue(at(-8 * DAY))).body).toEqual({ status: true, expired: [], notices: 0 });
    expect((await runDue(at(-7 * DAY + 60_000))).body.notices).toBe(1);
    expect((await runDue(at(-6 * DAY))).body.notices).toBe(0);
    const mails = await notices(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Nudge: your premium renews on 1 March 2027');
    expect(mails[0]?.text).toContain('We will charge ₹2500 for the next year');
  });

  it('renewal off: "You will not be charged again"; premium ends at endAt', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    await h.post('/api/payment/cancel', { token: user.token });
    await runDue(at(-3 * DAY));
    const [mail] = await notices(user.email);
    expect(mail?.text).toContain('You will not be charged again on 1 March 2027');
    expect((await runDue(at(-1000))).body.expired).toEqual([]);
    expect((await runDue(at(0))).body.expired).toEqual([subscriptionId]);
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: false, status: 'expired' });
  });

  it('refuses calls without the credential and bad input, changing nothing', async () => {
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect((await runDue(at(DAY * 3), null)).status).toBe(403);
    const bad = await runDue('', BILLING_INTERNAL_TOKEN, { at: 'next week' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: false, message: expect.any(String) });
    expect(await h.subscription(subscriptionId)).toMatchObject({ entitled: true });
    expect(await notices(user.email)).toEqual([]);
  });
});
