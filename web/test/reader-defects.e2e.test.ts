import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type E2eApp,
  e2eUnavailable,
  pageWithSession,
  type Session,
  SHOTS,
  seriousA11yViolations,
  signInAdmin,
  signInThroughOutbox,
  startE2e,
} from './e2e-harness';

const unavailable = e2eUnavailable();
const SERVER_WAIT = { timeout: 15_000, interval: 250 };
if (unavailable) console.log(`[e2e] reader defects: skipped: ${unavailable}`);

const WIDTHS = [390, 1280] as const;
/** A body whose 150th character falls inside a word. */
const LONG_BODY =
  'Afternoon light helps the body keep its clock: step outside after lunch, walk slowly for ten minutes, and notice the warmth on your face before returning afterwards to work.';

/** What readers see on the phone and on the desktop: the defects a first test drive found, each fixed. */
describe.runIf(!unavailable)('the reader app, phone and desktop', () => {
  let e2e: E2eApp;
  let admin: Session;
  let free = '';
  let sleep = '';
  const api = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(e2e, method, path, body, token);
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

  beforeAll(async () => {
    e2e = await startE2e({ ADMIN_EMAILS: 'admin@example.com' });
    admin = await signInAdmin(e2e);
    await api(
      'PUT',
      '/api/sitesettings/update',
      { settings: { subscription: true, recommendation: true, isCommentsVisible: true } },
      admin.token,
    );
    for (const name of ['Sleep', 'Nutrition'])
      await api('POST', '/api/topic/add', { topic: name }, admin.token);
    sleep = (await api('GET', '/api/topic/getalltopics')).topics.find(
      (t: { topic: string }) => t.topic === 'Sleep',
    )._id;
    const add = async (heading: string, type: 0 | 1, body: string) =>
      (
        await api(
          'POST',
          '/api/template/add',
          { heading, body, subject: '', subjects: [], topic: sleep, status: true, type },
          admin.token,
        )
      ).template._id as string;
    for (let n = 1; n <= 3; n += 1) await add(`Premium walk ${n}`, 1, `${LONG_BODY} (${n})`);
    free = await add('Walk after lunch', 0, LONG_BODY);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('own comments keep Edit and Delete after a reload, marked by the server without any address', async () => {
    const reader = await signInThroughOutbox(e2e, 'own@example.com', { firstname: 'Owen', lastname: 'Own' });
    await api('POST', '/api/comment/add', { token: reader.token, templateid: free, message: 'Mine, still.' });
    for (const width of WIDTHS) {
      const { context, page } = await pageWithSession(e2e, reader, width);
      const listed = page.waitForResponse((r) => r.url().includes(`/api/comment/comments/${free}`));
      await page.goto(`/post/${free}`);
      const body = await (await listed).text();
      expect(body).not.toContain('own@example.com');
      expect(JSON.parse(body).comments[0].mine).toBe(true);
      const menu = page.getByRole('button', { name: 'Comment options' });
      await menu.waitFor();
      await page.reload();
      await menu.waitFor();
      // Cancel in the delete dialog gives the focus back to the menu button.
      await menu.click();
      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this comment?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Comment options');
      await shot(page, `defects-own-comment-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await context.close();
    }
    // Another reader sees the comment without a menu.
    const other = await signInThroughOutbox(e2e, 'other@example.com', { firstname: 'Oto', lastname: 'Her' });
    const { context, page } = await pageWithSession(e2e, other, 390);
    await page.goto(`/post/${free}`);
    await page.locator('.comment', { hasText: 'Mine, still.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Comment options' }).count()).toBe(0);
    await context.close();
  });

  it('a comment that fails to send says so and Retry sends it', async () => {
    const reader = await signInThroughOutbox(e2e, 'retry@example.com', {
      firstname: 'Rhea',
      lastname: 'Try',
    });
    for (const width of WIDTHS) {
      const { context, page } = await pageWithSession(e2e, reader, width);
      await page.route('**/api/comment/add', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"status":false}' }),
      );
      await page.goto(`/post/${free}`);
      await page.getByLabel('Write a comment').fill(`Sent at ${width}`);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText("Your comment wasn't sent. Please check your connection and try again.").waitFor();
      await shot(page, `defects-comment-failed-${width}`);
      await page.unroute('**/api/comment/add');
      await page.locator('#comments').getByRole('button', { name: 'Retry' }).click();
      await page.locator('.comment', { hasText: `Sent at ${width}` }).waitFor();
      expect(await page.getByText("Your comment wasn't sent.").count()).toBe(0);
      await context.close();
    }
  });

  it("today's post failing on a server error shows the contract's words and a Retry", async () => {
    const reader = await signInThroughOutbox(e2e, 'today@example.com', { firstname: 'To', lastname: 'Day' });
    for (const width of WIDTHS) {
      const { context, page } = await pageWithSession(e2e, reader, width);
      await page.route('**/api/logs/gettodaypost', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"status":false}' }),
      );
      await page.goto('/');
      await page.getByText("Failed to load today's post").waitFor();
      await shot(page, `defects-today-failed-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.unroute('**/api/logs/gettodaypost');
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.locator('.post-card').first().waitFor();
      await context.close();
    }
  });

  it('previews end on a whole word with one "...", in the feed and the carousel; empty topics have no chip', async () => {
    const reader = await signInThroughOutbox(e2e, 'preview@example.com', {
      firstname: 'Pre',
      lastname: 'View',
    });
    for (const width of WIDTHS) {
      const { context, page } = await pageWithSession(e2e, reader, width);
      await page.goto('/?page=all');
      const preview = page
        .locator('.post-card', { hasText: 'Walk after lunch' })
        .locator('.post-card__preview');
      const text = await preview.innerText();
      expect(text).toMatch(/[a-z]\.\.\.$/);
      const shown = text.slice(0, -3);
      expect(LONG_BODY.startsWith(shown)).toBe(true);
      expect(LONG_BODY.charAt(shown.length)).toMatch(/[\s,.:]/);
      await page.locator('label[for="feed-topic-all"]').waitFor();
      expect(await page.locator('.feed-topics__chip', { hasText: 'Nutrition' }).count()).toBe(0);
      await shot(page, `defects-feed-${width}`);
      await page.goto(`/post/${free}`);
      const cards = page.locator('.reco-card__preview');
      await cards.first().waitFor();
      for (const card of await cards.allInnerTexts()) expect(card).not.toMatch(/\.{4}|[^.]\.{2}$/);
      await context.close();
    }
  });

  it('/payment-success signed out does not promise premium; it asks to sign in', async () => {
    for (const width of WIDTHS) {
      const { context, page } = await pageWithSession(e2e, null, width);
      await page.goto('/payment-success');
      await page.getByText('Payment Successful!').waitFor();
      await page.getByText('Sign in with the e-mail address you paid with').waitFor();
      expect(await page.getByText('Premium is yours for 12 months').count()).toBe(0);
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      await shot(page, `defects-payment-success-signed-out-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('the WhatsApp number keeps digits only; a wrong code is marked and cleared at its field', async () => {
    for (const width of WIDTHS) {
      const email = `wa${width}@example.com`;
      const reader = await signInThroughOutbox(e2e, email, { firstname: 'Wa', lastname: 'Ts' });
      const { context, page } = await pageWithSession(e2e, reader, width);
      await page.goto('/setting');
      await page.locator('label[for="profile-enable-whatsapp"]').click();
      const phone = page.getByLabel('WhatsApp number');
      await phone.pressSequentially('98a76-54b32(10)');
      expect(await phone.inputValue()).toBe('9876543210');
      await page.getByRole('button', { name: 'Send OTP' }).click();
      const code = page.getByLabel('Code sent to your WhatsApp');
      await code.waitFor();
      const right = await e2e.codeFor('+919876543210');
      await code.fill(right === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.locator('#profile-phone-otp-error').waitFor();
      await expect.poll(() => code.inputValue()).toBe('');
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      await expect.poll(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
      await shot(page, `defects-whatsapp-wrong-code-${width}`);
      await context.close();
    }
  });

  it('a refunded cancel turns the card into Subscribe without a reload', async () => {
    const reader = await signInThroughOutbox(e2e, 'refund@example.com', {
      firstname: 'Re',
      lastname: 'Fund',
    });
    const { context, page } = await pageWithSession(e2e, reader, 390);
    await page.goto('/upgrade');
    await page.getByRole('button', { name: 'Subscribe now' }).click();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Payment Successful!').waitFor();
    await page.getByText('Premium is yours for 12 months').waitFor();
    await page.goto('/upgrade');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Your subscription cancel successfully').waitFor();
    await page.getByRole('button', { name: 'Subscribe now' }).waitFor(SERVER_WAIT);
    await shot(page, 'defects-refunded-cancel-390');
    await context.close();
  });

  it('the week strip keeps "Today" inside its cell on a phone', async () => {
    const reader = await signInThroughOutbox(e2e, 'week@example.com', { firstname: 'We', lastname: 'Ek' });
    const { context, page } = await pageWithSession(e2e, reader, 390);
    await page.goto('/');
    await page.getByRole('button', { name: 'Show progress' }).click();
    const today = page.locator('.week-strip__day--today');
    await today.waitFor();
    const cell = await today.boundingBox();
    const label = await today.locator('.week-strip__label').boundingBox();
    expect(cell && label).toBeTruthy();
    if (cell && label) {
      // Clear of the highlight's 2 px border on both sides.
      expect(label.x).toBeGreaterThanOrEqual(cell.x + 4);
      expect(label.x + label.width).toBeLessThanOrEqual(cell.x + cell.width - 4);
    }
    await shot(page, 'defects-week-strip-390');
    await context.close();
  });

  it('the levels widget at the top level does not speak of a next level', async () => {
    await api(
      'PUT',
      '/api/sitesettings/update',
      { settings: { levels: [{ title: 'Beginner', count: 0 }] } },
      admin.token,
    );
    const reader = await signInThroughOutbox(e2e, 'top@example.com', { firstname: 'Top', lastname: 'Level' });
    const { context, page } = await pageWithSession(e2e, reader, 1280);
    await page.goto('/');
    const widget = page.getByRole('button', { name: /^Level: Beginner/ });
    await widget.waitFor();
    expect(await widget.getAttribute('aria-label')).toBe(
      'Level: Beginner, the highest level. Open Your Progress',
    );
    await context.close();
  });
});
