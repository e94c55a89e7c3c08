import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { formulaStarts, HOSTILE_CSV_VALUES } from '@nudge/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntake } from '../src/app/intake';
import { type Harness, log, startReporting, type TestUser } from './harness';

let h: Harness;
let admin: TestUser;
let reader: TestUser;

beforeAll(async () => {
  h = await startReporting();
  admin = await h.user({ role: 'admin' });
  reader = await h.user({ email: 'reader@example.com' });
});
afterAll(() => h?.close());

const logs = (query = 'page=1&limit=10', token = admin.token) =>
  h.post(`/api/eventlogs/logs?${query}`, {}, token);

describe('POST /api/eventlogs (intake)', () => {
  it('accepts one event, a list, and { token, events } (sendBeacon); stamps the user from the token', async () => {
    const one = await h.post('/api/eventlogs', {
      token: reader.token,
      eventType: 'page_visit',
      eventValue: '/home',
      metadata: { path: '/home' },
    });
    expect(one.body).toEqual({ status: true, accepted: 1 });
    const list = await h.post(
      '/api/eventlogs',
      [
        { eventType: 'web_like_click', eventValue: 'p1' },
        { eventType: 'web_comment_click', eventValue: 'p2' },
      ],
      reader.token,
    );
    expect(list.body).toEqual({ status: true, accepted: 2 });
    const beacon = await h.post('/api/eventlogs', {
      token: reader.token,
      events: [{ eventType: 'email_continue_reading', eventValue: 'p3' }],
    });
    expect(beacon.body.accepted).toBe(1);
    const anonymous = await h.post('/api/eventlogs', { eventType: 'page_visit', eventValue: '/about' });
    expect(anonymous.body.accepted).toBe(1);
    await h.service.intake.flush();

    const page = await logs('page=1&limit=100');
    expect(page.body.status).toBe(true);
    const mine = page.body.data.filter(
      (r: { userId: string | null; eventType: string }) =>
        r.userId === reader.userId && r.eventType !== 'sign_up',
    );
    expect(mine.map((r: { eventType: string }) => r.eventType).sort()).toEqual(
      ['email_continue_reading', 'page_visit', 'web_comment_click', 'web_like_click'].sort(),
    );
    const visit = mine.find((r: { eventType: string }) => r.eventType === 'page_visit');
    expect(visit).toMatchObject({
      userEmail: 'reader@example.com',
      eventValue: '/home',
      metadata: { path: '/home' },
    });
    expect(visit._id).toMatch(/^[0-9a-f]{24}$/);
    expect(visit.createdAt).toBe('2026-11-20T12:00:00.000Z');
    const anon = page.body.data.find((r: { eventValue: string }) => r.eventValue === '/about');
    expect(anon).toMatchObject({ userId: null, userEmail: null, metadata: {} });
  });

  it('refuses unknown types and bad shapes with a clear 400, and records nothing', async () => {
    await h.service.intake.flush();
    const before = (await logs()).body.total;
    const bad = await h.post('/api/eventlogs', { eventType: 'hack', eventValue: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.status).toBe(false);
    expect(bad.body.message).toMatch(/eventType must be one of page_visit/);
    const mixed = await h.post('/api/eventlogs', [{ eventType: 'page_visit' }, { eventType: 'nope' }]);
    expect(mixed.status).toBe(400);
    const tooMany = await h.post(
      '/api/eventlogs',
      Array.from({ length: 101 }, () => ({ eventType: 'page_visit' })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/at most 100 events/);
    expect((await h.post('/api/eventlogs', { eventType: 'page_visit', metadata: { a: 1 } })).status).toBe(
      400,
    );
    await h.service.intake.flush();
    expect((await logs()).body.total).toBe(before);
  });

  it('group commit: concurrent requests share one write + fsync, each answered only once its events are durable', async () => {
    const intake = createIntake({
      dir: join(h.dir, 'group-spool'),
      analytics: h.analytics,
      log,
      flushMs: 3_600_000,
      clock: () => new Date('2026-11-20T11:00:00.000Z'),
    });
    await intake.start();
    const durableAtAnswer: number[] = Array(20).fill(0);
    const calls = Array.from({ length: 20 }, (_, i) =>
      intake
        .accept(undefined, [{ eventType: 'page_visit', eventValue: `/g/${i}`, metadata: {} }])
        .then(() => {
          durableAtAnswer[i] = intake.stats().durableEvents;
        }),
    );
    await Promise.all(calls);
    // 20 requests in one window: one group (two if a timer tick split them), never one fsync per request.
    expect(intake.stats().groups).toBeLessThanOrEqual(2);
    expect(intake.stats().durableEvents).toBe(20);
    // The i-th request's event is the (i+1)-th spooled: its answer came only after an fdatasync that covered it.
    for (const [i, durable] of durableAtAnswer.entries()) expect(durable).toBeGreaterThanOrEqual(i + 1);
    await intake.flush();
    const [row] = await h.analytics.query<{ n: number }>(
      "SELECT count() AS n FROM events WHERE log_value LIKE '/g/%'",
    );
    expect(Number(row?.n)).toBe(20);
    await intake.stop();
  });

  it('a spool line torn by a crash is skipped; the whole lines before it are loaded', async () => {
    const dir = join(h.dir, 'torn-spool');
    const first = createIntake({
      dir,
      analytics: h.analytics,
      log,
      flushMs: 3_600_000,
      clock: () => new Date('2026-11-20T11:30:00.000Z'),
    });
    await first.start();
    const [id] = await first.accept(undefined, [
      { eventType: 'page_visit', eventValue: '/torn', metadata: {} },
    ]);
    // The process dies in the middle of the next append.
    await appendFile(join(dir, 'current.ndjson'), '{"id":"torn","type":"reporting.We');
    const next = createIntake({ dir, analytics: h.analytics, log, flushMs: 3_600_000 });
    await next.start();
    const rows = await h.analytics.query<{ id: string }>(
      "SELECT id FROM events WHERE id IN ({id:String}, 'torn')",
      { id: id ?? '' },
    );
    expect(rows.map((r) => r.id)).toEqual([id]);
    expect(await readdir(dir)).toEqual([]);
    await next.stop();
  });

  it('an accepted event is on disk before the answer and reaches ClickHouse after a crash', async () => {
    const dir = join(h.dir, 'crash-spool');
    const crashed = createIntake({
      dir,
      analytics: h.analytics,
      log,
      flushMs: 3_600_000,
      clock: () => new Date('2026-11-20T12:00:00.000Z'),
    });
    await crashed.start();
    const [id] = await crashed.accept(undefined, [
      { eventType: 'page_visit', eventValue: '/crash', metadata: {} },
    ]);
    // No flush, no stop: the process "dies" here. A new process on the same directory loads the spool at start.
    const next = createIntake({
      dir,
      analytics: h.analytics,
      log,
      flushMs: 3_600_000,
      clock: () => new Date('2026-11-20T12:00:00.000Z'),
    });
    await next.start();
    const rows = await h.analytics.query<{ id: string }>('SELECT id FROM events WHERE id = {id:String}', {
      id: id ?? '',
    });
    expect(rows).toHaveLength(1);
    await next.stop();
  });
});

describe('the admin event log', () => {
  it('shows the readers domain activity too, newest first, paged', async () => {
    const { AuthEvents } = await import('@nudge/contracts');
    await h.publish('auth', [
      h.event(AuthEvents.UserSignedIn, { userId: reader.userId, method: 'link' }, '2026-11-20T13:00:00.000Z'),
    ]);
    const first = await logs('page=1&limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toMatchObject({
      userId: reader.userId,
      userEmail: 'reader@example.com',
      eventType: 'sign_in',
      eventValue: 'link',
    });
    const second = await logs('page=2&limit=2');
    expect(second.body.data[0]._id).not.toBe(first.body.data[0]._id);
    expect(first.body.total).toBeGreaterThanOrEqual(6);
  });

  it('is for admins only; bad page or limit is a 400', async () => {
    expect((await logs('page=1', reader.token)).status).toBe(403);
    expect((await h.post('/api/eventlogs/logs?page=1', {})).status).toBe(401);
    expect((await logs('page=0')).status).toBe(400);
    expect((await logs('page=1&limit=1000')).status).toBe(400);
    expect((await h.post('/api/eventlogs/alllogs', {}, reader.token)).status).toBe(403);
  });

  it('exports EventLogs.csv, streamed, with formula injection neutralised', async () => {
    await h.post('/api/eventlogs', { eventType: 'page_visit', eventValue: '=HYPERLINK("x")' }, reader.token);
    await h.service.intake.flush();
    const res = await h.post('/api/eventlogs/alllogs', {}, admin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('EventLogs.csv');
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe('Id,User Id,User Email,Event Type,Event Value,Created On');
    const total = (await logs()).body.total;
    expect(lines).toHaveLength(total + 1);
    expect(res.text).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('neutralises every formula trigger in EventLogs.csv, also after a separator inside a value', async () => {
    const events = HOSTILE_CSV_VALUES.map((eventValue) => ({ eventType: 'page_visit', eventValue }));
    expect((await h.post('/api/eventlogs', events, reader.token)).body.accepted).toBe(events.length);
    await h.service.intake.flush();
    const res = await h.post('/api/eventlogs/alllogs', {}, admin.token);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`,"x;'=cmd|' /C calc'!A0",`);
    expect(res.text).toContain(`,"'\t=1+1",`);
    expect(formulaStarts(res.text)).toEqual([]);
  });
});
