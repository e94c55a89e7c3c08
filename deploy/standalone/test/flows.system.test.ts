import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

// Flows across auth, content, engagement and billing in the standalone process: every call through the gateway,
// every cross-service effect through the bus.

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWM4oaGBFTEMLQkAgl1GAXRgBQ4AAAAASUVORK5CYII=';
const SECRET_BODY = 'Premium secret: the fourth breath is the one that counts.';

let dataDir: string;
let app: Standalone;

const { call, ok, eventually, signIn } = gatewayClient(() => app);

let admin: { token: string; id: string };
const topicIds: string[] = [];
const free: string[] = [];
let premium = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-flows-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAILS: 'admin@example.com',
    WEB_DIST: join(dataDir, 'no-web'),
  });
  admin = await signIn('admin@example.com');
  // The admin role reaches content through the bus a moment after the sign-in.
  await eventually(
    async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
    'content to know the admin',
  );
  for (const topic of ['Sleep', 'Focus']) await ok('POST', '/api/topic/add', { topic }, admin.token);
  for (const t of (await ok('GET', '/api/topic/getalltopics')).topics) topicIds.push(t._id);
  const add = async (n: number, type: 0 | 1, topic: string, body: string, image?: string) =>
    (
      await ok(
        'POST',
        '/api/template/add',
        {
          heading: `Post ${n}`,
          body,
          subject: '',
          subjects: [],
          topic,
          status: true,
          type,
          ...(image ? { image } : {}),
        },
        admin.token,
      )
    ).template._id as string;
  for (let n = 1; n <= 6; n += 1)
    free.push(await add(n, 0, topicIds[n % 2] as string, `Free post ${n} body`));
  premium = await add(7, 1, topicIds[0] as string, SECRET_BODY, PNG);
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('flows across the services in the standalone process', () => {
  it('the feed pages by 5 with topic counts; the premium body reaches no plain reader by any call', async () => {
    const reader = await signIn('plain@example.com');
    const page1 = await ok(
      'POST',
      '/api/logs/getallpost?page=1&limit=5',
      { subscription: true },
      reader.token,
    );
    const page2 = await ok(
      'POST',
      '/api/logs/getallpost?page=2&limit=5',
      { subscription: true },
      reader.token,
    );
    expect(page1.templates).toHaveLength(5);
    expect(page2.templates).toHaveLength(2);
    expect(page1.totalPostsCount).toBe(7);
    const counts = Object.fromEntries(
      page1.topicCounts.map((c: { _id: string; count: number }) => [c._id, c.count]),
    );
    expect(counts).toEqual({ [topicIds[0] as string]: 4, [topicIds[1] as string]: 3 });
    const locked = [...page1.templates, ...page2.templates].find((t: { _id: string }) => t._id === premium);
    expect(locked).toMatchObject({ locked: true, type: 1 });
    expect(locked.image).toMatch(/^\/api\/media\//);
    const image = await fetch(new URL(`${locked.image}?w=480`, app.url));
    expect(image.status).toBe(200);
    expect(image.headers.get('cache-control')).toContain('max-age=31536000');

    const responses = [
      page1,
      page2,
      await ok('POST', `/api/template/${premium}`, {}, reader.token),
      await ok('POST', `/api/template/${premium}`, {}),
      await ok('POST', `/api/template/recommendations/${free[0]}?page=1&limit=5`, {}, reader.token),
      await ok('POST', '/api/logs/gettodaypost', {}, reader.token),
    ];
    await ok('POST', '/api/like/add', { templateid: premium, status: true }, reader.token);
    responses.push(
      await ok('POST', '/api/like/getalllikedpost?page=1&limit=5', { subscription: true }, reader.token),
    );
    for (const response of responses) expect(JSON.stringify(response)).not.toContain('fourth breath');
    const admins = await ok('POST', `/api/template/${premium}`, {}, admin.token);
    expect(admins.template.body).toBe(SECRET_BODY);
  });

  it("today's post is the same on every call; opening posts fills the reading history", async () => {
    const reader = await signIn('today@example.com');
    const first = await ok('POST', '/api/logs/gettodaypost', {}, reader.token);
    const again = await ok('POST', '/api/logs/gettodaypost', {}, reader.token);
    expect(first.template._id).toBe(again.template._id);
    await ok('POST', `/api/template/${free[1]}`, {}, reader.token);
    await eventually(
      async () => (await ok('POST', '/api/history/getuserhistory', {}, reader.token)).history.length === 1,
      'the read to reach engagement',
    );
  });

  it('likes and comments made in engagement show in content’s counts, exactly', async () => {
    const reader = await signIn('liker@example.com');
    const other = await signIn('other@example.com');
    const id = free[2] as string;
    await ok('POST', '/api/like/add', { templateid: id, status: true }, reader.token);
    await ok('POST', '/api/like/add', { templateid: id, status: true }, reader.token);
    await ok('POST', '/api/like/add', { templateid: id, status: true }, other.token);
    const { comment } = await ok(
      'POST',
      '/api/comment/add',
      { templateid: id, message: 'Lovely.' },
      reader.token,
    );
    await eventually(async () => {
      const { template } = await ok('POST', `/api/template/${id}`, {}, reader.token);
      return template.totallikes === 2 && template.totalcomments === 1 && template.like === true;
    }, 'likes and comments to reach content');
    await ok('POST', '/api/like/add', { templateid: id, status: false }, other.token);
    await ok('POST', '/api/comment/delete', { id: comment._id }, admin.token);
    await eventually(async () => {
      const { template } = await ok('POST', `/api/template/${id}`, {}, other.token);
      return template.totallikes === 1 && template.totalcomments === 0 && template.like === false;
    }, 'the unlike and the deletion to reach content');
  });

  it('a plain reader cannot comment on a premium post; a reader without names is asked for them', async () => {
    const plain = await signIn('nocomment@example.com');
    const refused = await call(
      'POST',
      '/api/comment/add',
      { templateid: premium, message: 'Hi' },
      plain.token,
    );
    expect(refused.status).toBe(403);
    const nameless = await signIn('nameless@example.com', false);
    const asked = await call(
      'POST',
      '/api/comment/add',
      { templateid: free[0], message: 'Hi' },
      nameless.token,
    );
    expect(asked.status).toBe(400);
    expect(asked.body.message).toMatch(/first and last name/);
  });

  it('subscribing through the simulated checkout makes the reader premium; a forged webhook changes nothing', async () => {
    const buyer = await signIn('buyer@example.com');
    const forged = JSON.stringify({ event: 'subscription.activated', payload: {} });
    const refused = await fetch(new URL('/api/payment/verification', app.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': createHmac('sha256', 'guess').update(forged).digest('hex'),
        'x-razorpay-event-id': 'evt_forged',
      },
      body: forged,
    });
    expect(refused.status).toBe(400);

    const checkout = await ok('POST', '/api/payment/checkout', {}, buyer.token);
    expect(checkout.subscription).toMatchObject({
      key: expect.any(String),
      subscriptionId: expect.any(String),
    });
    const page = await fetch(new URL(checkout.checkoutUrl, app.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pay');
    const paid = await fetch(new URL(checkout.checkoutUrl, app.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=pay',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('/payment-success');
    await eventually(
      async () => (await ok('POST', '/api/user/isauth', { token: buyer.token })).user.role === 'premium',
      'auth to make the buyer premium',
    );
    await eventually(
      async () =>
        (await ok('POST', `/api/template/${premium}`, {}, buyer.token)).template.body === SECRET_BODY,
      'content to see the premium role',
    );
    const { details } = await ok('POST', '/api/payment/details', {}, buyer.token);
    expect(details).toMatchObject({ renewal: 'Active' });
    // Its renewal workflow (the embedded scheduler's durable timer) waits for the notice 7 days before endAt.
    expect(await app.renewals.timer(checkout.subscription.subscriptionId)).toEqual({
      subscriptionId: checkout.subscription.subscriptionId,
      endAt: details.endAt,
      next: { kind: 'notice', at: new Date(Date.parse(details.endAt) - 7 * 24 * 3600_000).toISOString() },
    });
    const { history } = await ok('POST', '/api/payment/history', {}, buyer.token);
    expect(history[0]).toMatchObject({ amount: 250000 });
    const transactions = await ok('POST', '/api/payment/alldata?page=1&limit=10', {}, admin.token);
    expect(transactions.data.map((t: { email: string }) => t.email)).toContain('buyer@example.com');
  });

  it('a check-in link answers once and signs the reader in', async () => {
    const reader = await signIn('checkin@example.com');
    await ok(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'reverse', order: 0, tags: [] },
      admin.token,
    );
    const internalToken = (
      await readFile(join(dataDir, 'keys', 'internal-service-token.secret'), 'utf8')
    ).trim();
    const issued = await fetch(`${app.serviceUrls.engagement}/internal/checkin/issue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
      body: JSON.stringify({ userId: reader.id }),
    }).then((res) => res.json());
    const link = new URL(issued.links[0].url);
    const first = await ok('POST', `/api/checkin${link.search}`);
    expect(first).toMatchObject({
      status: true,
      token: expect.any(String),
      user: { email: 'checkin@example.com' },
    });
    expect(first.alreadyAnswered).toBeUndefined();
    const second = await ok('POST', `/api/checkin${link.search}`);
    expect(second).toMatchObject({ status: true, alreadyAnswered: true });
    // Answer 1 on a reverse-scale question is the best score.
    expect((await ok('POST', '/api/checkin/progress', {}, first.token)).average).toBe(100);
    const bad = await call('POST', '/api/checkin?qlid=nonsense&a=9');
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });
});
