import { internalPost } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { NoticeSettings } from '../src/app/renewal-notices';
import {
  BILLING_INTERNAL_TOKEN,
  type BillingHarness,
  DAY,
  NOTICE_SETTINGS,
  startBilling,
  subscribe,
} from './harness';

// The renewal notice e-mail: an HTML part rendered by React Email in the site settings' dress (e-mail
// logo, colours, subject prefix) and a plain-text part, with the wording of reader.md for renewal on and off and a
// link to the reader's Subscription page.

const END = '2027-03-01T10:00:00.000Z';
const at = (deltaMs: number) => new Date(Date.parse(END) + deltaMs).toISOString();
const BRANDED: NoticeSettings = {
  ...NOTICE_SETTINGS,
  sitetitle: 'Calm Daily',
  footersitetitle: 'Calm Daily Ltd',
  subjectprefix: '[Calm]',
  emaillogo: 'https://cdn.example/calm-logo.png',
  headingcolor: '#0f766e',
  paragraphcolor: '#334155',
  buttoncolor: '#7c3aed',
  buttonfontcolor: '#fefce8',
};

let h: BillingHarness;
let settings: () => Promise<NoticeSettings>;
const start = async () => {
  h = await startBilling({ start: '2026-03-01T10:00:00.000Z', siteSettings: () => settings() });
};
afterEach(async () => {
  await h.close();
});

const noticeStep = (subscriptionId: string, iso: string) =>
  internalPost(
    h.url,
    '/internal/subscriptions/renewal-step',
    { subscriptionId, kind: 'notice', endAt: END, at: iso },
    BILLING_INTERNAL_TOKEN,
  );
/** The notices to this reader (the payment's receipt aside). */
const mailsTo = async (to: string) =>
  (await h.outbox.list()).filter((m) => m.to === to && !m.idempotencyKey?.startsWith('receipt-'));
/** The HTML's visible text, tags dropped and entities of the texts we check decoded. */
const visible = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('the renewal notice e-mail', () => {
  it('renewal on: HTML and text parts with the date and amount of the next charge, in the site settings', async () => {
    settings = async () => BRANDED;
    await start();
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    expect((await noticeStep(subscriptionId, at(-7 * DAY))).body.outcome).toBe('notice-sent');
    const [mail, ...more] = await mailsTo(user.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('[Calm] Calm Daily: your premium renews on 1 March 2027');

    const text = mail?.text ?? '';
    expect(text).toContain(
      'Your subscription will renew on 1 March 2027. We will charge ₹2500 for the next year then.',
    );
    expect(text).toContain('https://nudge.example/upgrade');
    expect(text).not.toContain('not be charged again');

    const html = mail?.html ?? '';
    expect(html).toMatch(/^<!DOCTYPE html/);
    expect(visible(html)).toContain(
      'Your subscription will renew on 1 March 2027. We will charge ₹2500 for the next year then.',
    );
    expect(visible(html)).toContain('Your Calm Daily premium renews on 1 March 2027');
    expect(html).toContain('src="https://cdn.example/calm-logo.png"');
    expect(html).toContain('href="https://nudge.example/upgrade"');
    expect(html).toMatch(/background-color:#7c3aed[^"]*color:#fefce8/); // the button in the site's colours
    expect(html).toContain('color:#0f766e'); // the heading colour
    expect(visible(html)).toContain('Calm Daily Ltd');
  });

  it('renewal off: "You will not be charged again on {date} ..." in both parts, no charge announced', async () => {
    settings = async () => NOTICE_SETTINGS;
    await start();
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    h.clock.advance(10 * DAY);
    expect((await h.post('/api/payment/cancel', { token: user.token })).status).toBe(200);
    expect((await noticeStep(subscriptionId, at(-7 * DAY))).body.outcome).toBe('notice-sent');
    const [mail] = await mailsTo(user.email);
    expect(mail?.subject).toBe('Nudge: your premium ends on 1 March 2027');
    const wording =
      'You will not be charged again on 1 March 2027 because subscription renewal is disabled. Your Nudge premium ends then.';
    expect(mail?.text).toContain(wording);
    expect(visible(mail?.html ?? '')).toContain(wording);
    expect(visible(mail?.html ?? '')).toContain('Your Nudge premium ends on 1 March 2027');
    expect(mail?.html).toContain('href="https://nudge.example/upgrade"');
    expect(mail?.text).not.toContain('We will charge');
    expect(mail?.html).not.toContain('We will charge');
    // No e-mail logo set: the site title heads the e-mail instead of an image.
    expect(mail?.html).not.toContain('<img');
  });

  it('the site settings unavailable: the step fails and sends nothing; the retry sends the notice once', async () => {
    let up = false;
    settings = async () => {
      if (!up) throw new Error('content answered 503 to the site settings fetch');
      return NOTICE_SETTINGS;
    };
    await start();
    const user = await h.user();
    const { subscriptionId } = await subscribe(h, user);
    const failed = await noticeStep(subscriptionId, at(-7 * DAY));
    expect(failed.status).toBeGreaterThanOrEqual(500); // retryable: the workflow runs the step again
    expect(await mailsTo(user.email)).toEqual([]);
    expect((await h.service.renewalPlan(subscriptionId)).next).toEqual({ kind: 'notice', at: at(-7 * DAY) });
    up = true;
    expect((await noticeStep(subscriptionId, at(-7 * DAY + 60_000))).body.outcome).toBe('notice-sent');
    expect((await noticeStep(subscriptionId, at(-7 * DAY + 120_000))).body.outcome).toBe('nothing');
    expect(await mailsTo(user.email)).toHaveLength(1);
  });
});
