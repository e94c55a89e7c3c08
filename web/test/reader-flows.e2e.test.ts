import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonCall } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type E2eApp,
  e2eUnavailable,
  pageWithSession,
  type Session,
  seriousA11yViolations,
  signInThroughOutbox,
  startE2e,
} from './e2e-harness';

const unavailable = e2eUnavailable();
if (unavailable) console.log(`[e2e] reader flows: skipped: ${unavailable}`);

/** An 8x8 PNG (red), as an admin's upload would arrive: a data URL. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4oaGBFTEMLQkAgl1GAXRgBQ4AAAAASUVORK5CYII=';
const PREMIUM_BODY = 'The secret of the premium breathing ladder is to lengthen each exhale by one count.';

describe.runIf(!unavailable)('reader flows across the services, in Chromium', () => {
  let e2e: E2eApp;
  let admin: Session;
  const topics: Record<'Sleep' | 'Focus', string> = { Sleep: '', Focus: '' };
  const posts: { free: string[]; premium: string } = { free: [], premium: '' };

  const api = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(e2e, method, path, body, token);
  const signIn = (email: string, names?: { firstname: string; lastname: string }) =>
    signInThroughOutbox(e2e, email, names);
  /** A browser context whose stored token is this session's (as after a sign-in). */
  const pageAs = (session: Session | null, width = 450) => pageWithSession(e2e, session, width);

  const postAsReader = (id: string, token: string) => api('POST', `/api/template/${id}`, { token });

  beforeAll(async () => {
    e2e = await startE2e({ ADMIN_EMAILS: 'admin@example.com' });
    admin = await signIn('admin@example.com', { firstname: 'Ada', lastname: 'Admin' });
    // The admin role reaches content through the bus a moment after the sign-in.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const res = await jsonCall(e2e.app.url, 'GET', '/api/template/alltemplates', undefined, admin.token);
      if (res.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Subscriptions are off until an admin turns them on (the /upgrade page needs the setting).
    await api('PUT', '/api/sitesettings/update', { settings: { subscription: true } }, admin.token);
    for (const name of ['Sleep', 'Focus'] as const) {
      await api('POST', '/api/topic/add', { topic: name }, admin.token);
    }
    for (const t of (await api('GET', '/api/topic/getalltopics')).topics) {
      if (t.topic === 'Sleep' || t.topic === 'Focus') topics[t.topic as 'Sleep' | 'Focus'] = t._id;
    }
    const add = async (n: number, topic: string, type: 0 | 1, body: string) =>
      (
        await api(
          'POST',
          '/api/template/add',
          {
            heading: `${type ? 'Premium nudge' : 'Nudge'} ${n}`,
            body,
            subject: '',
            subjects: [],
            topic,
            status: true,
            type,
            ...(n === 1 ? { image: PNG } : {}),
          },
          admin.token,
        )
      ).template._id as string;
    for (let n = 1; n <= 9; n += 1)
      posts.free.push(await add(n, topics.Sleep, 0, `Free body number ${n}: breathe in, breathe out.`));
    for (let n = 10; n <= 12; n += 1)
      posts.free.push(await add(n, topics.Focus, 0, `Free body number ${n}: one thing at a time.`));
    posts.premium = await add(13, topics.Sleep, 1, PREMIUM_BODY);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('the feed pages by 5 while scrolling, counts topics, and filters by topic', async () => {
    const reader = await signIn('scroller@example.com', { firstname: 'Sam', lastname: 'Scroll' });
    const { context, page } = await pageAs(reader);
    await page.goto('/?page=all');
    const cards = page.locator('.post-card');
    await expect.poll(() => cards.count()).toBe(5);
    await expect.poll(() => page.locator('label[for="feed-topic-all"]').innerText()).toContain('13');
    expect(await page.locator(`label[for="feed-topic-${topics.Sleep}"]`).innerText()).toContain('10');
    expect(await page.locator(`label[for="feed-topic-${topics.Focus}"]`).innerText()).toContain('3');
    // The premium card shows its badge and the server's preview, never the body.
    await e2e.shot(page, 'flows-feed-page1');
    for (let i = 0; i < 5 && !(await page.getByText('No more posts to show').isVisible()); i += 1) {
      await page.mouse.wheel(0, 20_000);
      await page.waitForTimeout(300);
    }
    await page.getByText('No more posts to show').waitFor();
    expect(await cards.count()).toBe(13);
    expect(await page.content()).not.toContain(PREMIUM_BODY);
    await page.locator(`label[for="feed-topic-${topics.Focus}"]`).click();
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Nudge 12'), expect.stringContaining('Nudge 10')]),
    );
    await e2e.shot(page, 'flows-feed-topic');
    await context.close();
  });

  it('likes and unlikes a post: the count follows on the server and in the liked list', async () => {
    const reader = await signIn('liker@example.com', { firstname: 'Lee', lastname: 'Liker' });
    const id = posts.free[2] as string;
    const { context, page } = await pageAs(reader);
    await page.goto(`/post/${id}`);
    const like = page.locator('.post-actions button[aria-pressed]');
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('false');
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await postAsReader(id, reader.token)).template.totallikes).toBe(1);
    expect((await postAsReader(id, reader.token)).template.like).toBe(true);
    await page.goto('/?page=liked');
    await page.locator('.post-card', { hasText: 'Nudge 3' }).waitFor();
    await e2e.shot(page, 'flows-liked');
    await page.goto(`/post/${id}`);
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    await like.click();
    await expect.poll(async () => (await postAsReader(id, reader.token)).template.totallikes).toBe(0);
    await context.close();
  });

  it('comments: the name form first, then add, edit and delete; no comments on premium posts for plain users', async () => {
    const reader = await signIn('commenter@example.com');
    const { context, page } = await pageAs(reader);
    await page.goto(`/post/${posts.free[0]}`);
    await page.getByText('Add your first and last name to comment.').waitFor();
    await page.getByLabel('First name').fill('Cora');
    await page.getByLabel('Last name').fill('Comment');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Name updated successfully').waitFor();
    await page.getByLabel('Write a comment').fill('This helped me sleep.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.comment', { hasText: 'This helped me sleep.' }).waitFor();
    await page.getByRole('button', { name: 'Comment options' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.locator('#comment-edit').fill('This helped me sleep well.');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.locator('.comment', { hasText: 'This helped me sleep well.' }).waitFor();
    await e2e.shot(page, 'flows-comment');
    const listed = await api('GET', `/api/comment/comments/${posts.free[0]}?page=1&limit=5`);
    expect(listed.comments[0]).toMatchObject({
      message: 'This helped me sleep well.',
      userDetails: { firstname: 'Cora', lastname: 'Comment' },
    });
    await page.getByRole('button', { name: 'Comment options' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Delete this comment?' }).waitFor();
    await page.locator('.modal__actions').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('.comment').count()).toBe(0);
    expect((await api('GET', `/api/comment/comments/${posts.free[0]}?page=1&limit=5`)).comments).toEqual([]);

    await page.goto(`/post/${posts.premium}`);
    await page.getByText('Only premium readers can comment on premium posts.').waitFor();
    await context.close();
  });

  it('premium gating, then the upgrade through the simulated checkout opens the premium body', async () => {
    const anonymous = await pageAs(null, 1280);
    await anonymous.page.goto(`/post/${posts.premium}`);
    await anonymous.page.getByText('Please login to read more...').waitFor();
    expect(await anonymous.page.content()).not.toContain(PREMIUM_BODY);
    await anonymous.context.close();

    const reader = await signIn('buyer@example.com', { firstname: 'Bo', lastname: 'Buyer' });
    const { context, page } = await pageAs(reader, 1280);
    await page.goto(`/post/${posts.premium}`);
    await page.getByText('This is a premium post. Upgrade to read more.').waitFor();
    expect(await page.content()).not.toContain(PREMIUM_BODY);
    await e2e.shot(page, 'flows-premium-gate');
    await page.getByRole('link', { name: 'Upgrade' }).click();
    await page.getByRole('button', { name: 'Subscribe now' }).click();
    await page.getByRole('button', { name: /^Pay / }).waitFor();
    await e2e.shot(page, 'flows-simulated-checkout');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Payment Successful!').waitFor();
    await expect
      .poll(async () => (await api('POST', '/api/user/isauth', { token: reader.token })).user.role)
      .toBe('premium');

    await page.goto(`/post/${posts.premium}`);
    await page.getByText(PREMIUM_BODY).waitFor();
    await e2e.shot(page, 'flows-premium-open');

    await page.goto('/upgrade');
    await page.getByText(/Your subscription will renew on \d{1,2} \w+ \d{4}/).waitFor();
    await e2e.shot(page, 'flows-subscription');
    await page.goto('/bilinghistory');
    await page.getByText('₹2,500').first().waitFor();
    const transactions = await api('POST', '/api/payment/alldata?page=1&limit=10&email=buyer@example.com', {
      token: admin.token,
    });
    expect(transactions.total).toBe(1);
    expect(transactions.data[0]).toMatchObject({ email: 'buyer@example.com' });

    // Cancelling within 7 days of the start cancels at once and refunds (reader.md §9): premium ends.
    await page.goto('/upgrade');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Your subscription cancel successfully').waitFor();
    await expect
      .poll(async () => (await api('POST', '/api/user/isauth', { token: reader.token })).user.role)
      .toBe('user');
    await context.close();
  });

  it('a check-in link records the answer once and signs the reader in', async () => {
    const reader = await signIn('checkin@example.com', { firstname: 'Cal', lastname: 'Checkin' });
    await api(
      'POST',
      '/api/checkin/add',
      { body: 'How rested do you feel today?', scale: 'normal', order: 0, tags: ['sleep'], status: true },
      admin.token,
    );
    const internalToken = (
      await readFile(join(e2e.app.config.DATA_DIR, 'keys', 'internal-service-token.secret'), 'utf8')
    ).trim();
    const issued = await fetch(`${e2e.app.serviceUrls.engagement}/internal/checkin/issue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
      body: JSON.stringify({ userId: reader.id }),
    }).then((res) => res.json());
    const link = new URL(issued.links[3].url);

    const { context, page } = await pageAs(null);
    await page.goto(`/checkin${link.search}`);
    await page
      .getByText('Thanks, your response has been recorded. You will now be redirected to your feed.')
      .waitFor();
    await e2e.shot(page, 'flows-checkin');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    const progress = await api('POST', '/api/checkin/progress', { token: reader.token });
    expect(progress.average).toBe(75);

    await page.goto(`/checkin${link.search}`);
    await page
      .getByText('You have already responded to this question. You will now be redirected to your feed.')
      .waitFor();
    expect((await api('POST', '/api/checkin/progress', { token: reader.token })).average).toBe(75);
    await context.close();
  });

  it('axe-core finds no serious or critical violation on the feed, a post and the upgrade page', async () => {
    const reader = await signIn('a11y@example.com', { firstname: 'Al', lastname: 'Lee' });
    const { context, page } = await pageAs(reader, 1280);
    for (const path of ['/?page=all', `/post/${posts.free[0]}`, '/upgrade']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    await context.close();
  });
});
