import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonCall } from '@nudge/platform/testing';
import { type Standalone, startStandalone } from '@nudge/standalone';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const WEB_DIST = resolve(here, '../dist');
export const SHOTS = resolve(here, '../../test-artifacts/screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser suite cannot run here, or null when it can. */
export function e2eUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (!existsSync(join(WEB_DIST, 'index.html')))
    return 'the web app is not built (npm run build -w @nudge/web)';
  return null;
}

export interface E2eApp {
  app: Standalone;
  browser: Browser;
  /** A fresh browser context (own storage) with a page at the given viewport width. */
  newPage(width?: number): Promise<{ context: BrowserContext; page: Page }>;
  /** The newest 6-digit code sent to this address, from the dev outbox. */
  codeFor(email: string): Promise<string>;
  /** Mints an e-mail link token the way the reminder sender will (auth's internal route). */
  mintLink(kind: 'signin-link' | 'unsubscribe', userId: string): Promise<{ token: string; url: string }>;
  /** Issues a check-in question to a user the way the reminder sender does (engagement's internal route). */
  issueCheckin(userId: string, questionId: string): Promise<{ links: Array<{ url: string }> }>;
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startE2e(env: Record<string, string> = {}): Promise<E2eApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nudge-e2e-'));
  const app = await startStandalone({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', WEB_DIST, ...env });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const internalToken = (
    await readFile(join(dataDir, 'keys', 'internal-service-token.secret'), 'utf8')
  ).trim();
  await mkdir(SHOTS, { recursive: true });
  return {
    app,
    browser,
    async newPage(width = 450) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, baseURL: app.url });
      const page = await context.newPage();
      return { context, page };
    },
    async codeFor(email) {
      const outbox = await jsonCall(app.url, 'GET', '/api/dev/outbox');
      const message = outbox.body.messages.find((m: { to: string }) => m.to === email);
      const code = message?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code for ${email} in the dev outbox`);
      return code;
    },
    async mintLink(kind, userId) {
      const res = await fetch(`${app.serviceUrls.auth}/internal/tokens/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
        body: JSON.stringify({ userId }),
      });
      return (await res.json()) as { token: string; url: string };
    },
    async issueCheckin(userId, questionId) {
      const res = await fetch(`${app.serviceUrls.engagement}/internal/checkin/issue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
        body: JSON.stringify({ userId, questionId }),
      });
      if (!res.ok) throw new Error(`check-in issue: ${res.status} ${await res.text()}`);
      return (await res.json()) as { links: Array<{ url: string }> };
    },
    async shot(page, name) {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** axe-core's serious and critical violations on the current page. */
export async function seriousA11yViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string; help: string; nodes: number }>> {
  const require = createRequire(import.meta.url);
  // Evaluated through the DevTools protocol, so the app's Content-Security-Policy (no inline scripts) stays on.
  await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: Array<{ id: string; impact: string; help: string; nodes: unknown[] }>;
          }>;
        };
      }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.length,
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A signed-in user as the e2e tests hold one: the session token and the user id. */
export interface Session {
  token: string;
  id: string;
}

/** One JSON call to the standalone; a 4xx or 5xx fails the test with the server's answer. */
export async function apiCall(e2e: E2eApp, method: string, path: string, body?: unknown, token?: string) {
  const res = await jsonCall(e2e.app.url, method, path, body, token);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Signs in through the API (code from the dev outbox); names make the profile complete. */
export async function signInThroughOutbox(
  e2e: E2eApp,
  email: string,
  names?: { firstname: string; lastname: string },
): Promise<Session> {
  await apiCall(e2e, 'POST', '/api/user/auth', { email });
  const { token, user } = await apiCall(e2e, 'POST', '/api/user/verify', {
    email,
    otp: await e2e.codeFor(email),
  });
  if (names) await apiCall(e2e, 'POST', '/api/user/update', { email, token, info: { email, ...names } });
  return { token, id: user._id };
}

/** A browser context whose stored token is this session's (as after a sign-in); none when `session` is null. */
export async function pageWithSession(
  e2e: E2eApp,
  session: Session | null,
  width: number,
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await e2e.newPage(width);
  if (session) await context.addInitScript((token) => localStorage.setItem('token', token), session.token);
  return { context, page };
}

/** Signs the admin in (ADMIN_EMAILS must name the address) and waits until the admin role has reached content. */
export async function signInAdmin(e2e: E2eApp, email = 'admin@example.com'): Promise<Session> {
  const admin = await signInThroughOutbox(e2e, email, { firstname: 'Ada', lastname: 'Admin' });
  // The role travels to content over the bus a moment after the sign-in.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const res = await jsonCall(e2e.app.url, 'GET', '/api/template/alltemplates', undefined, admin.token);
    if (res.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return admin;
}
