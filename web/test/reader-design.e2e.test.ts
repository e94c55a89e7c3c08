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
if (unavailable) console.log(`[e2e] reader design: skipped: ${unavailable}`);

const WIDTHS = [390, 1280] as const;
const PARAGRAPH =
  'Afternoon light helps the body keep its clock: step outside after lunch, walk slowly for ten minutes, and notice the warmth on your face before returning to work.';

/** Characters per rendered line of an element's text: every line but the last (which may be short). */
async function charactersPerLine(page: Page, selector: string): Promise<number[]> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const text = element.firstChild as Text;
      const range = document.createRange();
      const lines = new Map<number, number>();
      for (let i = 0; i < text.length; i += 1) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        lines.set(top, (lines.get(top) ?? 0) + 1);
      }
      return [...lines.values()].slice(0, -1);
    });
}

/** The main column's box: left and right margins at this width. */
async function columnBox(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      return { left: box.left, right: window.innerWidth - box.right, width: box.width };
    });
}

/** The desktop that feels designed and the first day of the habit, on a phone and a desktop. */
describe.runIf(!unavailable)('the reader app: layout, day one, titles and messages', () => {
  let e2e: E2eApp;
  let admin: Session;
  let post = '';
  let sleep = '';
  let move = '';
  const api = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(e2e, method, path, body, token);
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });

  beforeAll(async () => {
    e2e = await startE2e({ ADMIN_EMAILS: 'admin@example.com' });
    admin = await signInAdmin(e2e);
    for (const name of ['Sleep', 'Movement'])
      await api('POST', '/api/topic/add', { topic: name }, admin.token);
    const topics = (await api('GET', '/api/topic/getalltopics')).topics as Array<{
      _id: string;
      topic: string;
    }>;
    sleep = topics.find((t) => t.topic === 'Sleep')?._id ?? '';
    move = topics.find((t) => t.topic === 'Movement')?._id ?? '';
    const add = async (heading: string, topic: string) =>
      (
        await api(
          'POST',
          '/api/template/add',
          {
            heading,
            body: `${PARAGRAPH} ${PARAGRAPH} ${PARAGRAPH}`,
            subject: '',
            subjects: [],
            topic,
            status: true,
            type: 0,
          },
          admin.token,
        )
      ).template._id as string;
    await add('Sleep early', sleep);
    post = await add('Walk after lunch', move);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('every reader page is one centred column at 1280; the post reads at 60-75 characters a line', async () => {
    const reader = await signInThroughOutbox(e2e, 'layout@example.com', {
      firstname: 'Lay',
      lastname: 'Out',
    });
    const { context, page } = await pageWithSession(e2e, reader, 1280);
    for (const [path, column] of [
      ['/?page=all', '.narrow'],
      ['/setting', '.narrow'],
      ['/login', '.narrow'],
      ['/nope', '.centred-message'],
      [`/post/${post}`, '.post-page'],
    ] as const) {
      await page.goto(path);
      await page.locator(column).first().waitFor();
      const box = await columnBox(page, column);
      // Centred: the blank space is shared by both sides, not left on one.
      expect(Math.abs(box.left - box.right), path).toBeLessThanOrEqual(2);
      if (column === '.narrow') expect(box.width, path).toBeLessThanOrEqual(450);
    }
    await page.locator('.post__body p').first().waitFor();
    const lines = await charactersPerLine(page, '.post__body p');
    expect(lines.length).toBeGreaterThan(1);
    for (const count of lines) {
      expect(count).toBeGreaterThanOrEqual(60);
      expect(count).toBeLessThanOrEqual(75);
    }
    const size = await page
      .locator('.post__body p')
      .first()
      .evaluate((p) => getComputedStyle(p).fontSize);
    expect(Number.parseFloat(size)).toBeGreaterThanOrEqual(18);
    await shot(page, 'design-post-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto('/?page=all');
    await page.locator('.post-card').first().waitFor();
    await shot(page, 'design-feed-1280');
    await context.close();

    // On a phone the columns fill the width with the page's padding.
    const phone = await pageWithSession(e2e, reader, 390);
    await phone.page.goto(`/post/${post}`);
    await phone.page.locator('.post__body p').first().waitFor();
    const small = await columnBox(phone.page, '.post-page');
    expect(small.left).toBe(16);
    expect(small.right).toBe(16);
    await shot(phone.page, 'design-post-390');
    expect(await seriousA11yViolations(phone.page)).toEqual([]);
    await phone.context.close();
  });

  it('the topic filter is in the URL: a shared link opens it, Back from a post comes back to it', async () => {
    const reader = await signInThroughOutbox(e2e, 'topics@example.com', { firstname: 'Top', lastname: 'Ic' });
    for (const width of WIDTHS) {
      const { context, page } = await pageWithSession(e2e, reader, width);
      await page.goto('/?page=all');
      const cards = page.locator('.post-card h2, .post-card h3');
      await expect.poll(() => cards.count()).toBe(2);
      await page.locator(`label[for="feed-topic-${move}"]`).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('topic')).toBe(move);
      await expect.poll(() => cards.allInnerTexts()).toEqual(['Walk after lunch']);
      await page
        .getByRole('link', { name: /Walk after lunch/ })
        .first()
        .click();
      await page.locator('.post__body').waitFor();
      await page.goBack();
      await expect.poll(() => cards.allInnerTexts()).toEqual(['Walk after lunch']);
      expect(await page.locator(`#feed-topic-${move}`).isChecked()).toBe(true);
      await shot(page, `design-topic-${width}`);
      await context.close();

      // A shared link opens the same filter in a fresh browser.
      const shared = await pageWithSession(e2e, reader, width);
      await shared.page.goto(`/?page=all&topic=${sleep}`);
      const sharedCards = shared.page.locator('.post-card h2, .post-card h3');
      await expect.poll(() => sharedCards.allInnerTexts()).toEqual(['Sleep early']);
      expect(await shared.page.locator(`#feed-topic-${sleep}`).isChecked()).toBe(true);
      await shared.context.close();
    }
  });

  it('every page has its own title, the 404 page and a missing post included', async () => {
    const { context, page } = await pageWithSession(e2e, null, 390);
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: '404 Not Found!' }).waitFor();
    await expect.poll(() => page.title()).toBe('Page not found | Nudge');
    await page.goto('/post/000000000000000000000000');
    await page.locator('.post-error').waitFor();
    await expect.poll(() => page.title()).not.toBe('Nudge');
    expect(await page.title()).toMatch(/ \| Nudge$/);
    await page.goto('/aboutus');
    await expect.poll(() => page.title()).toBe('About Us | Nudge');
    await context.close();
  });

  it("sign-in: a wrong code is the contract's warning once and the words at the field, gone when the step changes; the reminder step names the time zone", async () => {
    for (const width of WIDTHS) {
      const email = `once-${width}@example.com`;
      const { context, page } = await e2e.browser
        .newContext({ viewport: { width, height: 900 }, baseURL: e2e.app.url, timezoneId: 'Asia/Calcutta' })
        .then(async (context) => ({ context, page: await context.newPage() }));
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Register/Login' }).click();
      const code = page.getByLabel('Code from your email');
      await code.waitFor();
      const right = await e2e.codeFor(email);
      await code.fill(right === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      // The contract's warning toast, once, and the same words at the field.
      const warning = page.locator('.Toastify').getByText('Invalid OTP! Please enter Correct OTP');
      await page.locator('#login-code-error').getByText('Invalid OTP! Please enter Correct OTP').waitFor();
      await warning.waitFor();
      expect(await warning.count()).toBe(1);
      await code.fill(right);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('First name').waitFor();
      // The step changed: the warning goes with it.
      await expect.poll(() => warning.count()).toBe(0);
      // The success toast sits at the foot of the screen, clear of the header.
      const toast = page.locator('.Toastify__toast').first();
      await toast.waitFor();
      const header = await page.locator('.site-header').boundingBox();
      const box = await toast.boundingBox();
      expect(box && header && box.y > header.y + header.height).toBe(true);
      // The reminder time is in the reader's own zone, named as people say it (never 'Asia/Calcutta').
      await page
        .getByText('Your reminder comes at 08:00, India Standard Time (GMT+5:30)', { exact: false })
        .waitFor();
      expect(await page.getByText('Asia/Calcutta').count()).toBe(0);
      await shot(page, `design-signin-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
