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

  it('refuses text that is not valid Unicode (a lone surrogate) with a 400 naming the field, and spools nothing', async () => {
    await h.service.intake.flush();
    const before = (await logs()).body.total;
    const spooled = h.service.intake.stats().durableEvents;
    const poisoned = await h.post('/api/eventlogs', { eventType: 'page_visit', eventValue: 'x\ud800' });
    expect(poisoned).toMatchObject({
      status: 400,
      body: {
        status: false,
        message: 'eventValue in the request body is not valid Unicode text (it holds a lone surrogate)',
      },
    });
    const inMetadata = await h.post('/api/eventlogs', {
      events: [{ eventType: 'page_visit', eventValue: '/', metadata: { path: '\udc00' } }],
    });
    expect(inMetadata.status).toBe(400);
    expect(inMetadata.body.message).toMatch(/^events\.0\.metadata\.path in the request body/);
    expect(h.service.intake.stats().durableEvents).toBe(spooled);
    await h.service.intake.flush();
    expect((await logs()).body.total).toBe(before);
  });

  it('group commit: concurrent requests share one write + fsync, each answered only once its events are durable', async () => {
    const intake = createIntake({
      dir: join(h.dir, 'group-spool'),
      analytics: h.analytics,
      writer: h.service.writer,
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
      writer: h.service.writer,
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
    const next = createIntake({
      dir,
      analytics: h.analytics,
      writer: h.service.writer,
      log,
      flushMs: 3_600_000,
    });
    await next.start();
    await next.flush();
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
      writer: h.service.writer,
      log,
      flushMs: 3_600_000,
      clock: () => new Date('2026-11-20T12:00:00.000Z'),
    });
    await crashed.start();
    const [id] = await crashed.accept(undefined, [
      { eventType: 'page_visit', eventValue: '/crash', metadata: {} },
    ]);
    // No flush, no stop: the process "dies" here. A new process on the same directory loads the spool after its
    // start, in the background.
    const next = createIntake({
      dir,
      analytics: h.analytics,
      writer: h.service.writer,
      log,
      flushMs: 3_600_000,
      clock: () => new Date('2026-11-20T12:00:00.000Z'),
    });
    await next.start();
    await next.flush();
    const rows = await h.analytics.query<{ id: string }>('SELECT id FROM events WHERE id = {id:String}', {
      id: id ?? '',
    });
    expect(rows).toHaveLength(1);
    await next.stop();
  });
});

describe('bounds of the intake', () => {
  it('keeps the server-only types to the server: a caller cannot write e-mail opens, clicks or any other server type', async () => {
    for (const eventType of ['email_open', 'email_click', 'email_sent', 'sign_in', 'post_read']) {
      const res = await h.post('/api/eventlogs', { eventType, eventValue: 'x' });
      expect(res.status, eventType).toBe(400);
      expect(res.body.message).toBe(
        'eventType must be one of page_visit, web_comment_click, web_like_click, email_like_click, email_continue_reading',
      );
    }
  });

  it('bounds an event: a value of 2000 characters, metadata of 10 entries and 2500 characters in all', async () => {
    const post = (event: object) => h.post('/api/eventlogs', { eventType: 'page_visit', ...event });
    expect((await post({ eventValue: 'v'.repeat(2001) })).body.message).toBe(
      'eventValue must be 2000 characters or less',
    );
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']));
    expect((await post({ metadata: eleven })).body.message).toBe('metadata may have at most 10 entries');
    expect((await post({ metadata: { url: 'u'.repeat(2000), ref: 'r'.repeat(500) } })).body.message).toBe(
      'metadata must be 2500 characters or less in all',
    );
    expect((await post({ metadata: { url: 'u'.repeat(2000), ref: 'r'.repeat(490) } })).status).toBe(200);
  });

  it('counts events, not requests, against an address that has not signed in; past its minute budget a 429 that spools nothing', async () => {
    const small = await startReporting({ intakeEventsPerMinute: 5 });
    try {
      const send = (body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${small.url}/api/eventlogs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      const events = (n: number) => ({
        events: Array.from({ length: n }, (_, i) => ({ eventType: 'page_visit', eventValue: `/b/${i}` })),
      });
      expect((await send(events(4))).status).toBe(200);
      const spooled = small.service.intake.stats().durableEvents;
      const over = await send(events(2));
      expect(over.status).toBe(429);
      expect(await over.json()).toEqual({
        status: false,
        message:
          'Too many events: at most 5 a minute from one address without signing in; please try again later',
      });
      expect(small.service.intake.stats().durableEvents).toBe(spooled);
      // what is left of the budget can still be spent; another address has its own
      expect((await send(events(1))).status).toBe(200);
      expect((await send(events(1))).status).toBe(429);
      expect((await send(events(5), { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
      // a signed-in reader is not counted against the address
      const reader = await small.user();
      expect((await send({ token: reader.token, ...events(20) })).status).toBe(200);
    } finally {
      await small.close();
    }
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

  it("filters by event type, by the user's e-mail (stamped or registered) and by day, oldest first on asking", async () => {
    const { AuthEvents } = await import('@nudge/contracts');
    const other = await h.user({ email: 'filtered.reader@example.com' });
    await h.publish('auth', [
      h.event(AuthEvents.UserSignedIn, { userId: other.userId, method: 'code' }, '2026-03-01T10:00:00.000Z'),
      h.event(AuthEvents.UserSignedIn, { userId: other.userId, method: 'link' }, '2026-03-02T10:00:00.000Z'),
      h.event(
        AuthEvents.UserSignedIn,
        { userId: other.userId, method: 'google' },
        '2026-03-03T10:00:00.000Z',
      ),
    ]);
    await h.post('/api/eventlogs', { eventType: 'web_like_click', eventValue: 'p9' }, other.token);
    await h.service.intake.flush();
    const values = (body: { data: Array<{ eventValue: string }> }) => body.data.map((r) => r.eventValue);

    const signIns = await logs('email=Filtered.Reader%40example.com&eventType=sign_in');
    expect(signIns.body.total).toBe(3);
    expect(values(signIns.body)).toEqual(['google', 'link', 'code']);
    const oldest = await logs('email=filtered.reader%40example.com&eventType=sign_in&order=asc');
    expect(values(oldest.body)).toEqual(['code', 'link', 'google']);
    const oneDay = await logs('email=filtered.reader%40example.com&from=2026-03-02&to=2026-03-02');
    expect(oneDay.body).toMatchObject({ total: 1, data: [{ eventValue: 'link' }] });
    const likes = await logs('email=filtered.reader%40example.com&eventType=web_like_click');
    expect(likes.body).toMatchObject({
      total: 1,
      data: [{ eventValue: 'p9', userEmail: 'filtered.reader@example.com' }],
    });
    expect((await logs('email=nobody%40example.com')).body).toMatchObject({ total: 0, data: [] });
    const backwards = await logs('from=2026-03-03&to=2026-03-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('The start date must not be after the end date');
  });

  it('is for admins only; bad page or limit is a 400', async () => {
    expect((await logs('page=1', reader.token)).status).toBe(403);
    expect((await h.post('/api/eventlogs/logs?page=1', {})).status).toBe(401);
    expect((await logs('page=0')).status).toBe(400);
    expect((await logs('page=1&limit=1000')).status).toBe(400);
    // a page whose offset would not be a safe integer is refused, and the last page allowed answers (empty)
    expect(await logs('page=9007199254740991')).toMatchObject({
      status: 400,
      body: { status: false, message: 'page must be 1000000000 or less' },
    });
    const last = await logs('page=1000000000&limit=100');
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
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

  it('EventLogs.csv begins with the UTF-8 byte order mark, so a spreadsheet reads accents', async () => {
    const res = await fetch(`${h.url}/api/eventlogs/alllogs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 5)]).toEqual([0xef, 0xbb, 0xbf, 0x49, 0x64]);
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
