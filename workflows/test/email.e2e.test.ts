import { resolve } from 'node:path';
import { browserUnavailable, emailBrowser, SHOTS } from '@nudge/email/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReminderEmailModel, renderReminderEmail } from '../src/email';

// The reminder e-mail looked at: rendered in headless Chromium at a phone's and a desktop's width; the
// screenshots go to test-artifacts/screenshots (email-375.png, email-1280.png).

if (browserUnavailable) console.warn(`reminder e-mail screenshots skipped: ${browserUnavailable}`);

const model: ReminderEmailModel = {
  settings: {
    sitetitle: 'Nudge',
    footersitetitle: 'Nudge',
    emaillogo: '',
    headingcolor: '#1f2937',
    paragraphcolor: '#374151',
    buttoncolor: '#2563eb',
    buttonfontcolor: '#ffffff',
    backgroundcolor: '#ffffff',
    recommendationheading: 'You might also like these',
    emailupdateheadline: '',
  },
  firstname: 'Asha',
  heading: 'The fourth breath is the one that counts',
  paragraphs: [
    'Sit comfortably and let your shoulders drop. Breathe in through your nose for four counts, hold for four, and let it go for six.',
    'By the fourth breath most people notice their jaw has unclenched. That is the moment to notice: nothing else needs to change yet.',
  ],
  preheader: 'Sit comfortably and let your shoulders drop. Breathe in through your nose for four counts...',
  fullPost: false,
  locked: false,
  image: null,
  continueUrl: 'https://nudge.example/api/reminder/go/c',
  likeUrl: 'https://nudge.example/api/reminder/go/l',
  upgradeUrl: null,
  recommendations: [
    { heading: 'A two-minute reset for busy afternoons', url: 'https://nudge.example/r1' },
    { heading: 'Why slow exhales calm you down', url: 'https://nudge.example/r2' },
    { heading: 'Sleep starts in the morning', url: 'https://nudge.example/r3' },
  ],
  checkin: {
    body: 'How rested do you feel today?',
    answers: [1, 2, 3, 4, 5].map((answer) => ({ answer, url: `https://nudge.example/a${answer}` })),
  },
  unsubscribeUrl: 'https://nudge.example/u',
  openPixelUrl: 'https://nudge.example/api/reminder/open/o',
};

const browser = emailBrowser();
beforeAll(async () => {
  if (!browserUnavailable) await browser.open();
});
afterAll(() => browser.close());

describe.skipIf(Boolean(browserUnavailable))('the reminder e-mail in a browser', () => {
  for (const width of [375, 1280]) {
    it(`fits ${width} px without sideways scrolling and shows every part`, async () => {
      const { html, text } = await renderReminderEmail(model);
      const page = await browser.show(html, width);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(width);
      for (const label of [
        'Continue reading',
        '♥ Like',
        'How rested do you feel today?',
        'Unsubscribe',
        'Completely',
      ])
        expect(await page.getByText(label, { exact: false }).first().isVisible()).toBe(true);
      // The inbox preview is hidden in the opened e-mail: what shows first is the site title.
      const shown = await page.evaluate(() => document.body.innerText);
      expect(shown.trimStart().startsWith('Nudge')).toBe(true);
      expect(shown).not.toContain('\u200c');
      await page.screenshot({ path: resolve(SHOTS, `email-${width}.png`), fullPage: true });
      await page.close();
      expect(text.toLowerCase()).toContain('the fourth breath is the one that counts');
      expect(text).toContain('https://nudge.example/api/reminder/go/c');
    });
  }
});
