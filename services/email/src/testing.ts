import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

// For tests that look at a rendered e-mail in headless Chromium (the reminder's, the renewal notice's).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots go: test-artifacts/screenshots at the repository root. */
export const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test-artifacts/screenshots');
/** Why e-mails cannot be looked at in a browser here, or null when they can. */
export const browserUnavailable = existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM}`;

/** A headless Chromium that shows one e-mail per page, at a given width, with every request answered empty. */
export function emailBrowser() {
  let browser: Browser | undefined;
  return {
    async open() {
      await mkdir(SHOTS, { recursive: true });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    },
    async show(html: string, width: number, height = 900): Promise<Page> {
      if (!browser) throw new Error('emailBrowser().open() first');
      const page = await browser.newPage({ viewport: { width, height } });
      await page.route('**/*', (route) => route.fulfill({ status: 204, body: '' }));
      await page.setContent(html, { waitUntil: 'load' });
      return page;
    },
    async close() {
      await browser?.close();
    },
  };
}
