// The reader's first load as a browser pays for it: Chromium opens the home page through the gateway with an empty
// cache, and every response's bytes on the wire (Network.loadingFinished's encodedDataLength: headers and the
// body as sent, compressed or not) are summed until the network is idle.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface FirstLoad {
  /** Bytes over the wire for the whole first load (documents, scripts, styles, API answers, images). */
  wireBytes: number;
  requests: Array<{ url: string; wireBytes: number; encoding: string }>;
}

/** Null (with the reason printed) when there is no Chromium to measure with. */
export async function measureFirstLoad(baseUrl: string): Promise<FirstLoad | null> {
  if (!existsSync(CHROMIUM)) {
    process.stdout.write(`first load: not measured, no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)\n`);
    return null;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, { url: string; encoding: string }>();
    const requests: FirstLoad['requests'] = [];
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      urls.set(e.requestId, { url: e.response.url, encoding: headers['content-encoding'] ?? 'identity' });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const seen = urls.get(e.requestId);
      requests.push({
        url: seen?.url ?? e.requestId,
        wireBytes: e.encodedDataLength,
        encoding: seen?.encoding ?? '?',
      });
    });
    await page.goto(new URL('/', baseUrl).toString(), { waitUntil: 'networkidle' });
    return { wireBytes: requests.reduce((n, r) => n + r.wireBytes, 0), requests };
  } finally {
    await browser.close();
  }
}
