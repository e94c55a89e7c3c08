import { resolve } from 'node:path';
import { browserUnavailable, emailBrowser, SHOTS } from '@nudge/email/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderRenewalNotice } from '../src/app/renewal-notices';
import type { SubscriptionState } from '../src/domain/subscription';
import { NOTICE_SETTINGS } from './harness';

// The renewal notice looked at: rendered in headless Chromium at a phone's and a desktop's width, renewal on and
// off; the screenshots go to test-artifacts/screenshots (renewal-on-375.png, renewal-off-1280.png, ...).

if (browserUnavailable) console.warn(`renewal notice screenshots skipped: ${browserUnavailable}`);

const subscription = {
  _id: 'sub_0000000000001',
  userId: 'u1',
  email: 'asha@example.com',
  endAt: '2027-03-01T10:00:00.000Z',
  amount: 250000,
} as SubscriptionState;

const browser = emailBrowser();
beforeAll(async () => {
  if (!browserUnavailable) await browser.open();
});
afterAll(() => browser.close());

describe.skipIf(Boolean(browserUnavailable))('the renewal notice e-mail in a browser', () => {
  for (const renews of [true, false])
    for (const width of [375, 1280]) {
      it(`renewal ${renews ? 'on' : 'off'} fits ${width} px without sideways scrolling`, async () => {
        const { html } = await renderRenewalNotice(
          subscription,
          renews,
          'Asia/Kolkata',
          NOTICE_SETTINGS,
          'https://nudge.example',
          'Asha',
        );
        const page = await browser.show(html, width, 700);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const wording = renews
          ? 'Your subscription will renew on 1 March 2027. We will charge ₹2500 for the next year then.'
          : 'You will not be charged again on 1 March 2027 because subscription renewal is disabled.';
        expect(await page.getByText(wording).isVisible()).toBe(true);
        const manage = page.getByRole('link', { name: 'Manage your subscription' });
        expect(await manage.isVisible()).toBe(true);
        expect(await manage.getAttribute('href')).toBe('https://nudge.example/upgrade');
        const box = await manage.boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: resolve(SHOTS, `renewal-${renews ? 'on' : 'off'}-${width}.png`),
          fullPage: true,
        });
        await page.close();
      });
    }
});
