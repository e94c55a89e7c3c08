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
/** How long a poll waits for what comes from the services (a page load, the bus): a loaded CI machine is slow. */
const SERVER_WAIT = { timeout: 15_000, interval: 250 };
if (unavailable) console.log(`[e2e] reader experience: skipped: ${unavailable}`);

const PREMIUM_BODY =
  'The premium ladder: breathe in for four, hold for four, and lengthen each exhale by one count every night.';

/** The first five minutes, honest numbers, flows and link previews, in Chromium. */
describe.runIf(!unavailable)('the reader experience', () => {
  let e2e: E2eApp;
  let admin: Session;
  let sleep = '';
  const free: string[] = [];
  let premium = '';

  const api = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(e2e, method, path, body, token);
  const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });

  beforeAll(async () => {
    e2e = await startE2e({ ADMIN_EMAILS: 'admin@example.com' });
    admin = await signInAdmin(e2e);
    await api('PUT', '/api/sitesettings/update', { settings: { subscription: true } }, admin.token);
    for (const name of ['Sleep', 'Focus', 'Calm', 'Movement', 'Nutrition', 'Gratitude', 'Connection']) {
      await api('POST', '/api/topic/add', { topic: name }, admin.token);
    }
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
    // Mostly premium posts, so a pick that ignores the reader's role would land on one.
    for (let n = 1; n <= 6; n += 1) await add(`Premium ladder ${n}`, 1, `${PREMIUM_BODY} (${n})`);
    free.push(await add('Wind down with the 4-7-8 breath', 0, 'Breathe in for four. '.repeat(60)));
    premium = await add('The premium ladder', 1, PREMIUM_BODY);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  /** Signs up through /login (focus in the code field), names, then lands on the feed. */
  async function signUp(page: Page, email: string) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Register/Login' }).click();
    const code = page.getByLabel('Code from your email');
    await code.waitFor();
    await expect.poll(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(await e2e.codeFor(email));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('First name').fill('Nia');
    await page.getByLabel('Last name').fill('New');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Feed' }).waitFor();
  }

  it('the signed-out home says what the service is; a shared post leads back to it', async () => {
    for (const width of [390, 1280]) {
      const { context, page } = await pageWithSession(e2e, null, width);
      await page.goto('/');
      await page.getByText('One short post a day on sleep, focus and calm').waitFor();
      expect(await page.locator('img.login__image').getAttribute('src')).toBe('/login-illustration.svg');
      await shot(page, `signed-out-home-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.goto(`/post/${free[0]}`);
      await page.getByRole('heading', { name: 'Wind down with the 4-7-8 breath' }).waitFor();
      await expect.poll(() => page.title()).toBe('Wind down with the 4-7-8 breath | Nudge');
      await page.getByText(/\d+ min read/).waitFor();
      if (width === 1280) await shot(page, 'post-1280');
      await page.getByRole('link', { name: 'Back to all posts' }).click();
      await page.getByText('One short post a day on sleep, focus and calm').waitFor();
      await context.close();
    }
  });

  it('day one: a free post today, no streak before a read, today and the days before sign-up neutral, when the first question comes', async () => {
    const { context, page } = await pageWithSession(e2e, null, 1280);
    await signUp(page, 'dayone@example.com');
    // Today's post is the one free post, though the reader's topics hold mostly premium ones.
    const card = page.locator('.post-card').first();
    await card.getByRole('heading', { name: 'Wind down with the 4-7-8 breath' }).waitFor();
    expect(await card.locator('.badge--premium').count()).toBe(0);
    await page.getByText('Answer a check-in question to see your wellbeing score.').waitFor();
    expect(await page.getByText('/ 100').count()).toBe(0);
    const numbers = page.locator('.reading__number dd');
    await expect.poll(() => numbers.allInnerTexts(), SERVER_WAIT).toEqual(['0 days', '0']);
    // Nothing is missed on day one: the six days before the sign-up are neutral, and so is today until it is read.
    expect(await page.locator('.week-strip__day--before').count()).toBe(6);
    expect(await page.locator('.week-strip__day--pending').count()).toBe(1);
    expect(await page.locator('.week-strip__day--missed').count()).toBe(0);
    // The wellbeing box says when the first check-in question comes (with the reminder e-mail, at its time).
    await page
      .getByText(/^Your first question comes with (today|tomorrow)'s reminder e-mail at \d\d:\d\d\.$/)
      .waitFor();
    await shot(page, 'first-dashboard-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The post page records the read when it loads the post (the home card has the same heading, so wait for that call).
    const opened = page.waitForResponse(
      (r) =>
        /\/api\/template\/[0-9a-f]{24}$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
    );
    await card.getByRole('link').click();
    expect((await opened).status()).toBe(200);
    // The read reaches the history through the bus: reload until it shows.
    await expect
      .poll(async () => {
        await page.goto('/');
        await page.locator('.week-strip').waitFor();
        return numbers.allInnerTexts();
      }, SERVER_WAIT)
      .toEqual(['1 day', '1']);
    expect(await page.locator('.week-strip__day--read').count()).toBe(1);
    await context.close();
  });

  it('on a phone the first post is above the fold; the progress summary expands', async () => {
    const reader = await signInThroughOutbox(e2e, 'phone@example.com', {
      firstname: 'Pia',
      lastname: 'Phone',
    });
    const { context, page } = await pageWithSession(e2e, reader, 390);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const card = page.locator('.post-card').first();
    await card.waitFor();
    const box = await card.boundingBox();
    expect(box && box.y + 80).toBeLessThan(844);
    expect(await page.locator('.week-strip').isVisible()).toBe(false);
    await shot(page, 'first-dashboard-390');
    const toggle = page.getByRole('button', { name: 'Show progress' });
    await toggle.click();
    await page.locator('.week-strip').waitFor();
    expect(await page.getByRole('button', { name: 'Hide progress' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Toasts sit at the top on a phone, away from the primary buttons.
    await page.goto(`/post/${free[0]}`);
    await page.getByRole('heading', { name: 'Wind down with the 4-7-8 breath' }).waitFor();
    await shot(page, 'post-390');
    await context.close();
  });

  it('topic chips that overflow fade, have arrow buttons and scroll with the wheel', async () => {
    // A topic without posts has no chip: every topic gets one post here, so the row overflows a phone.
    for (const { _id, topic } of (await api('GET', '/api/topic/getalltopics')).topics) {
      if (_id === sleep) continue;
      const post = { heading: `${topic} today`, body: `A ${topic} post.`, subject: '', subjects: [] };
      await api('POST', '/api/template/add', { ...post, topic: _id, status: true, type: 0 }, admin.token);
    }
    const reader = await signInThroughOutbox(e2e, 'chips@example.com', { firstname: 'Chi', lastname: 'Ps' });
    const { context, page } = await pageWithSession(e2e, reader, 390);
    await page.goto('/?page=all');
    const list = page.locator('.feed-topics__list');
    await page.locator('label[for="feed-topic-all"]').waitFor();
    const right = page.getByRole('button', { name: 'Scroll topics right' });
    await right.waitFor();
    expect(await page.getByRole('button', { name: 'Scroll topics left' }).count()).toBe(0);
    await list.hover();
    await page.mouse.wheel(0, 200);
    await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Scroll topics left' }).waitFor();
    await context.close();
  });

  it('the code step: a wrong code is cleared with the error next to it; Resend code after the countdown', async () => {
    const { context, page } = await pageWithSession(e2e, null, 390);
    await page.clock.install();
    await page.goto('/login');
    await page.getByLabel('Email').fill('resend@example.com');
    await page.getByRole('button', { name: 'Register/Login' }).click();
    const code = page.getByLabel('Code from your email');
    await code.waitFor();
    const first = await e2e.codeFor('resend@example.com');
    await code.fill(first === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#login-code-error').getByText('Invalid OTP! Please enter Correct OTP').waitFor();
    await expect.poll(() => code.inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Resend code' }).count()).toBe(0);
    await page.getByText(/ask for a new code in 0:\d\d/).waitFor();
    await page.clock.runFor(61_000);
    await page.getByRole('button', { name: 'Resend code' }).click();
    await page.getByText(/ask for a new code in/).waitFor();
    await expect.poll(() => e2e.codeFor('resend@example.com'), SERVER_WAIT).not.toBe(first);
    await code.fill(await e2e.codeFor('resend@example.com'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('First name').waitFor();
    await context.close();
  });

  it('the sign-in modal: focus in the code field, its own step 2 heading with topics, focus returns', async () => {
    const { context, page } = await pageWithSession(e2e, null, 1280);
    await page.goto(`/post/${premium}`);
    const opener = page.locator('.post-gate').getByRole('button', { name: 'Sign in', exact: true });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to save this post' });
    await dialog.getByLabel('Email').fill('modal@example.com');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    const code = dialog.getByLabel('Code from your email');
    await code.waitFor();
    await expect.poll(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
    await code.fill(await e2e.codeFor('modal@example.com'));
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const step2 = page.getByRole('dialog', { name: 'Set up your daily reminder' });
    await step2.getByText('Select post topics:').waitFor();
    await step2.locator(`label[for="topic-${sleep}"]`).click();
    await step2.getByRole('button', { name: 'Continue' }).click();
    await step2.waitFor({ state: 'hidden' });
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const me = await api('POST', '/api/user/isauth', { token });
    expect(me.user.topics).toEqual([sleep]);
    await context.close();

    // Escape closes the modal and the focus goes back to the button that opened it.
    const again = await pageWithSession(e2e, null, 1280);
    await again.page.goto(`/post/${premium}`);
    await again.page.locator('.post-gate').getByRole('button', { name: 'Sign in', exact: true }).click();
    await again.page.getByRole('dialog').waitFor();
    await again.page.keyboard.press('Escape');
    await expect
      .poll(() => again.page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe('Sign in');
    await again.context.close();
  });

  it('the share menu works with arrow keys', async () => {
    const { context, page } = await pageWithSession(e2e, null, 1280);
    await page.goto(`/post/${free[0]}`);
    const share = page.locator('.post-actions').getByRole('button', { name: /^Share/ });
    await share.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Copy link');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Email');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toContain('Whatsapp');
    await context.close();
  });

  it('link previews: Open Graph and Twitter tags for a free post and a premium one, never its body', async () => {
    const html = async (id: string) =>
      (await fetch(`${e2e.app.url}/post/${id}`, { headers: { accept: 'text/html' } })).text();
    const freeHtml = await html(free[0] as string);
    expect(freeHtml).toContain('<meta property="og:title" content="Wind down with the 4-7-8 breath" />');
    expect(freeHtml).toMatch(/<meta property="og:description" content="Breathe in for four\. Breathe in/);
    expect(freeHtml).toContain('<meta property="og:site_name" content="Nudge" />');
    expect(freeHtml).toContain('<meta name="twitter:card"');
    expect(freeHtml).toMatch(
      /<meta property="og:image" content="http:\/\/[^"]+\/login-illustration\.svg" \/>/,
    );
    expect(freeHtml).toContain('<title>Wind down with the 4-7-8 breath | Nudge</title>');
    const premiumHtml = await html(premium);
    expect(premiumHtml).toContain('<meta property="og:title" content="The premium ladder" />');
    expect(premiumHtml).not.toContain(PREMIUM_BODY);
    expect(premiumHtml).not.toContain('every night');
    // An unknown post gets the plain shell.
    expect(await html('0123456789abcdef01234567')).not.toContain('og:title');
  });

  it('payment from a locked post: the cancel texts, back to the post unlocked, the refund in the history', async () => {
    const reader = await signInThroughOutbox(e2e, 'payer@example.com', { firstname: 'Pay', lastname: 'Er' });
    const { context, page } = await pageWithSession(e2e, reader, 390);
    await page.goto(`/post/${premium}`);
    await page.getByRole('link', { name: 'Upgrade', exact: true }).click();
    await page.getByText('₹2,500').first().waitFor();
    await page.getByRole('button', { name: 'USD' }).click();
    await page.getByText('$30').first().waitFor();
    await page.getByRole('button', { name: 'Subscribe now' }).click();
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Payment Successful!').waitFor();
    await page.getByText('Unlimited premium articles').waitFor();
    await shot(page, 'payment-success-390');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe(`/post/${premium}`);
    await page.getByRole('article').getByText(PREMIUM_BODY).waitFor();

    await page.goto('/upgrade');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page
      .getByText('You are within 7 days of the start, so cancelling refunds ₹2,500 and ends premium now.')
      .waitFor();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Your subscription cancel successfully').waitFor();
    await page.goto('/bilinghistory');
    await page.getByRole('cell', { name: 'Refund' }).waitFor();
    await page.getByRole('cell', { name: '-₹2,500' }).waitFor();
    await context.close();
  });

  it('a WhatsApp number with its country code is verified and kept as E.164', async () => {
    const reader = await signInThroughOutbox(e2e, 'abroad@example.com', {
      firstname: 'Abe',
      lastname: 'Road',
    });
    const { context, page } = await pageWithSession(e2e, reader, 390);
    await page.goto('/setting');
    await page.locator('label[for="profile-enable-whatsapp"]').click();
    await page.getByLabel('WhatsApp number').fill('+44 7911 123456');
    await page.getByRole('button', { name: 'Send OTP' }).click();
    const otp = page.getByLabel('Code sent to your WhatsApp');
    await otp.waitFor();
    await otp.fill(await e2e.codeFor('+447911123456'));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect
      .poll(
        async () => (await api('POST', '/api/user/isauth', { token: reader.token })).user.phone,
        SERVER_WAIT,
      )
      .toBe('+447911123456');
    // India stays the default: ten digits without a country code are an Indian number.
    const indian = await signInThroughOutbox(e2e, 'home@example.com', { firstname: 'Hom', lastname: 'E' });
    await api(
      'POST',
      '/api/user/otpTransaction',
      { token: indian.token, email: 'home@example.com', phone: '98765 43210', stage: 1, otp: 0 },
      indian.token,
    );
    expect(await e2e.codeFor('+919876543210')).toMatch(/^\d{6}$/);
    await context.close();
  });

  it('bad check-in and unsubscribe links say what happened and offer a way home', async () => {
    const { context, page } = await pageWithSession(e2e, null, 390);
    await page.goto('/checkin?qlid=0123456789abcdef01234567&a=3');
    await page.getByText('answer from the newest one').waitFor();
    await page.getByRole('link', { name: 'Go to Feed' }).waitFor();
    await page.goto('/unsubscribe/not-a-real-link');
    await page.getByText('This link is not valid or has expired').waitFor();
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await expect.poll(() => new URL(page.url()).pathname, SERVER_WAIT).toMatch(/^\/(login)?$/);
    await context.close();
  });
});
