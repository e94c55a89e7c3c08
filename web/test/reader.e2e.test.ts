import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eApp, e2eUnavailable, seriousA11yViolations, startE2e } from './e2e-harness';

const unavailable = e2eUnavailable();
if (unavailable) console.log(`[e2e] reader web app: skipped: ${unavailable}`);

const WIDTHS = [450, 1280] as const;

describe.runIf(!unavailable)('the reader web app in Chromium', () => {
  let e2e: E2eApp;
  beforeAll(async () => {
    e2e = await startE2e();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  /** The signed-in user, as the page's stored token says (POST /api/user/isauth from inside the page). */
  async function currentUser(page: Page): Promise<{ _id: string } & Record<string, unknown>> {
    return page.evaluate(async () => {
      const res = await fetch('/api/user/isauth', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: localStorage.getItem('token') }),
      });
      return (await res.json()).user;
    });
  }

  /** Signs in through /login as a new reader would: e-mail, the code from the dev outbox, then the profile step. */
  async function signUp(page: Page, email: string) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Register/Login' }).click();
    await expect.poll(() => page.getByText('OTP sent to:').isVisible()).toBe(true);
    await page.getByLabel('Code from your email').fill(await e2e.codeFor(email));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Login Successful').waitFor();
  }

  for (const width of WIDTHS) {
    it(`signs up with the e-mailed code, fills the profile and lands on the feed (${width}px)`, async () => {
      const { context, page } = await e2e.newPage(width);
      const email = `new${width}@example.com`;
      await signUp(page, email);
      await e2e.shot(page, `profile-step-${width}`);
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Last name').fill('Lovelace');
      await page.getByLabel('Daily reminder time').selectOption('07:45');
      await page.getByLabel(/at least 16 years old/).check();
      // A new reader has not completed the profile yet: the button says 'Continue' (reader.md §2).
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('Settings updated successfully').waitFor();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/');
      await page.getByRole('navigation', { name: 'Feed' }).waitFor();
      await e2e.shot(page, `home-${width}`);

      expect(await currentUser(page)).toMatchObject({
        email,
        firstname: 'Ada',
        lastname: 'Lovelace',
        verified: true,
        notiinfo: { time: '07:45' },
      });
      await context.close();
    });
  }

  it('a wrong code shows the spec warning and keeps the reader on the code step', async () => {
    const { context, page } = await e2e.newPage(450);
    await page.goto('/login');
    await page.getByLabel('Email').fill('typo@example.com');
    await page.getByRole('button', { name: 'Register/Login' }).click();
    await page.getByText('OTP sent to:').waitFor();
    const code = await e2e.codeFor('typo@example.com');
    await page.getByLabel('Code from your email').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    // The spec's warning toast, and the same words next to the (cleared) code field.
    await page.locator('.Toastify').getByText('Invalid OTP! Please enter Correct OTP').waitFor();
    await page.locator('#login-code-error').getByText('Invalid OTP! Please enter Correct OTP').waitFor();
    expect(await page.getByLabel('Code from your email').inputValue()).toBe('');
    expect(await page.getByText('OTP sent to:').isVisible()).toBe(true);
    await context.close();
  });

  it('settings: changes persist across a reload; signed out, /setting goes to /login', async () => {
    const { context, page } = await e2e.newPage(1280);
    await signUp(page, 'settings@example.com');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel(/at least 16 years old/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Settings updated successfully').waitFor();
    await page.goto('/setting');
    await page.getByLabel('Daily reminder time').selectOption('21:15');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Settings updated successfully').waitFor();
    await page.goto('/setting');
    await expect.poll(() => page.getByLabel('Daily reminder time').inputValue()).toBe('21:15');
    await e2e.shot(page, 'settings-1280');
    await page.evaluate(() => localStorage.clear());
    await page.goto('/setting');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('an e-mail sign-in link signs the reader in and lands on all posts', async () => {
    const { context, page } = await e2e.newPage(450);
    await signUp(page, 'linked@example.com');
    const userId = (await currentUser(page))._id;
    await context.close();

    const { token } = await e2e.mintLink('signin-link', userId);
    const fresh = await e2e.newPage(450);
    await fresh.page.goto(`/?uid=${encodeURIComponent(token)}`);
    await expect.poll(() => new URL(fresh.page.url()).search).toBe('?page=all');
    const session = await fresh.page.evaluate(() => localStorage.getItem('token'));
    expect(session).toBeTruthy();

    // The link is spent: clicked again in the signed-in browser it changes nothing and says nothing.
    await fresh.page.goto(`/?uid=${encodeURIComponent(token)}`);
    await expect.poll(() => new URL(fresh.page.url()).search).toBe('?page=all');
    expect(await fresh.page.evaluate(() => localStorage.getItem('token'))).toBe(session);
    expect(await fresh.page.getByText('already been used').count()).toBe(0);
    await fresh.context.close();

    // In another browser (a forwarded e-mail, a second device) it signs no one in, and says why.
    const other = await e2e.newPage(450);
    await other.page.goto(`/?uid=${encodeURIComponent(token)}`);
    await other.page
      .getByText('This sign-in link has already been used; please sign in with your email')
      .waitFor();
    expect(await other.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await other.context.close();
  });

  it('the unsubscribe link shows the state and toggles it both ways', async () => {
    const { context, page } = await e2e.newPage(450);
    await signUp(page, 'unsub@example.com');
    const userId = (await currentUser(page))._id;
    const { token } = await e2e.mintLink('unsubscribe', userId);
    await page.goto(`/unsubscribe/${encodeURIComponent(token)}`);
    await page.getByText('You are currently: subscribed').waitFor();
    await page.getByText('unsub@example.com').waitFor();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('You are currently: unsubscribed').waitFor();
    await e2e.shot(page, 'unsubscribed-450');
    await page.getByRole('button', { name: 'Subscribe again' }).click();
    await page.getByText('You are currently: subscribed').waitFor();
    await context.close();
  });

  it('an unknown route shows the 404 page', async () => {
    const { context, page } = await e2e.newPage(450);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Not Found!' }).waitFor();
    await page.getByRole('link', { name: 'Back to Home Page' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/(login)?$/);
    await context.close();
  });

  it('axe-core finds no serious or critical violation on the main pages', async () => {
    const { context, page } = await e2e.newPage(450);
    const found: Record<string, unknown> = {};
    for (const path of ['/login', '/aboutus', '/no/such/page']) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      const violations = await seriousA11yViolations(page);
      if (violations.length) found[path] = violations;
    }
    await signUp(page, 'a11y@example.com');
    const violations = await seriousA11yViolations(page);
    if (violations.length) found['/login (profile step)'] = violations;
    expect(found).toEqual({});
    await context.close();
  });
});
