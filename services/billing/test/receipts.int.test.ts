import { afterEach, describe, expect, it } from 'vitest';
import { type BillingHarness, NOTICE_SETTINGS, startBilling, subscribe } from './harness';

// Receipts: a reader who pays or is refunded gets an e-mail saying how much, when, for what, and its reference.

let h: BillingHarness;
afterEach(async () => {
  await h.close();
});

const mailsTo = async (to: string) => (await h.outbox.list()).filter((m) => m.to === to);

describe('receipt e-mails', () => {
  it('mail a receipt for the payment, then one for the refund of a cancel inside the 7 days', async () => {
    h = await startBilling({ start: '2026-03-01T10:00:00.000Z', siteSettings: async () => NOTICE_SETTINGS });
    const user = await h.user();
    await subscribe(h, user);
    await expect.poll(async () => (await mailsTo(user.email)).length).toBe(1);
    const [paid] = await mailsTo(user.email);
    const site = NOTICE_SETTINGS.sitetitle;
    expect(paid?.subject).toBe(`${site}: your receipt for ₹2500`);
    expect(paid?.text).toContain(
      `We received ₹2500 on 1 March 2026 for a year of ${site} premium, from 1 March 2026 to 1 March 2027.`,
    );
    expect(paid?.text).toMatch(/Payment reference: pay_\w+/);
    expect(paid?.html).toMatch(/^<!DOCTYPE html/);

    const cancel = await h.post('/api/payment/cancel', { token: user.token });
    expect(cancel.status).toBe(200);
    await expect.poll(async () => (await mailsTo(user.email)).length).toBe(2);
    const refund = (await mailsTo(user.email)).find((m) => m.subject?.includes('refund'));
    expect(refund?.subject).toBe(`${site}: your refund of ₹2500`);
    expect(refund?.text).toContain(
      `We refunded ₹2500 on 1 March 2026 for your ${site} premium payment, and your premium has ended.`,
    );
    expect(refund?.text).toMatch(/Refund reference: \S+ \(payment pay_\w+\)/);

    // A second cancel changes nothing and mails nothing.
    await h.post('/api/payment/cancel', { token: user.token });
    expect(await mailsTo(user.email)).toHaveLength(2);
  });
});
