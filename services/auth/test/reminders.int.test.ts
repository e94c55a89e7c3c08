import { checkEvent, ReminderEvents } from '@nudge/contracts';
import { type EventEnvelope, newId, sendIdOf } from '@nudge/platform';
import { internalPost } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER_COUNTS } from '../src/events/reminder-consumer';
import { type AuthHarness, startAuth } from './harness';

// Auth's side of the daily reminders: which readers are due (only proven addresses), link tokens in batch,
// the cold / autoactive status from engagement's reminder facts, and the one-click unsubscribe.

let auth: AuthHarness;
const AT_0800_UTC = '2026-11-24T08:00:00.000Z';

const internal = (path: string, body: unknown, token: string | null = auth.internalToken) =>
  internalPost(auth.url, path, body, token);
const dueAt = async (at: string, limit = 500, cursor?: string) =>
  (await internal('/internal/reminders/due', { at, limit, ...(cursor ? { cursor } : {}) })).body;

async function reader(email: string, timeZone: string, time: string) {
  const { token, user } = await auth.signIn(email);
  const res = await auth.post('/api/user/update', {
    email,
    token,
    info: { ageConfirmed: true, email, timeZone, notiinfo: { time, active: true } },
  });
  expect(res.status).toBe(200);
  return { token, id: user._id as string };
}

let seq = 0;
/** The rest of a ReminderSent's facts (its contract requires them). */
const sent = {
  subject: 'Today',
  slot: '08:00',
  timeZone: 'UTC',
  checkinQuestionId: null,
  locked: false,
  sentAt: '2026-10-01T08:00:00.000Z',
};
const fact = (
  type: string,
  userId: string,
  day: string,
  extra: Record<string, unknown> = {},
): EventEnvelope => {
  seq += 1;
  const sendId = sendIdOf(userId, day, 'email');
  // Through engagement's contract schema, so a producer change fails this consumer's tests.
  const checked = checkEvent(type, {
    sendId,
    userId,
    channel: 'email',
    localDate: day,
    templateId: 't',
    subjectId: null,
    ...extra,
  });
  return {
    id: newId(),
    ...checked,
    stream: `reminder-${sendId}`,
    version: seq,
    occurredAt: new Date().toISOString(),
    actor: null,
    meta: {},
  };
};
const sendDays = async (userId: string, n: number, from = 1) => {
  for (let d = from; d < from + n; d++) {
    const day = `2026-10-${String(d).padStart(2, '0')}`;
    await auth.reminderHandlers[ReminderEvents.ReminderSent.type]?.(
      fact(ReminderEvents.ReminderSent.type, userId, day, sent),
    );
  }
};
const statusOf = async (id: string) => {
  const res = await fetch(`${auth.url}/internal/users/${id}`, {
    headers: { 'x-internal-token': auth.internalToken },
  });
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  auth = await startAuth({ coldAfter: 3 });
});
afterAll(() => auth.close());

describe('due readers (POST /internal/reminders/due)', () => {
  it('refuses a call without the internal credential and bad input, with the contract shape', async () => {
    expect((await internal('/internal/reminders/due', { at: AT_0800_UTC }, null)).status).toBe(403);
    const bad = await internal('/internal/reminders/due', { at: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: false, message: expect.any(String) });
    expect((await internal('/internal/reminders/due', { at: AT_0800_UTC, limit: 0 })).status).toBe(400);
  });

  it('lists proven readers due at their local time, in every zone, and never an address that only asked for a code', async () => {
    const utc = await reader('utc@example.com', 'UTC', '08:00');
    const kolkata = await reader('kolkata@example.com', 'Asia/Kolkata', '13:30');
    await reader('later@example.com', 'UTC', '08:15');
    expect((await auth.post('/api/user/auth', { email: 'stranger@example.com' })).status).toBe(200);
    const due = await dueAt(AT_0800_UTC);
    expect(due.next).toBeNull();
    expect(due.readers.map((r: { email: string }) => r.email).sort()).toEqual([
      'kolkata@example.com',
      'utc@example.com',
    ]);
    expect(due.readers.find((r: { userId: string }) => r.userId === kolkata.id)).toEqual({
      userId: kolkata.id,
      email: 'kolkata@example.com',
      firstname: '',
      role: 'user',
      timeZone: 'Asia/Kolkata',
      slot: '13:30',
      localDate: '2026-11-24',
      email_on: true,
      whatsapp: null,
    });
    // Once the stranger enters a code, their address proved itself.
    await auth.post('/api/user/verify', {
      email: 'stranger@example.com',
      otp: await auth.lastCode('stranger@example.com'),
    });
    expect((await dueAt(AT_0800_UTC)).readers).toHaveLength(3);
    expect(utc.id).toBeTruthy();
  });

  it('pages with a cursor, each reader once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await dueAt(AT_0800_UTC, 1, cursor);
      seen.push(...page.readers.map((r: { email: string }) => r.email));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(['kolkata@example.com', 'stranger@example.com', 'utc@example.com']);
  });
});

describe('admins are not readers', () => {
  it('an admin with reminders on at the slot is never among the due readers', async () => {
    const admin = await reader('boss@example.com', 'UTC', '08:00');
    const { body } = await statusOf(admin.id);
    expect(body.user?.role ?? body.role).toBe('admin');
    const due = await dueAt(AT_0800_UTC);
    expect(due.readers.map((r: { email: string }) => r.email).sort()).toEqual([
      'kolkata@example.com',
      'stranger@example.com',
      'utc@example.com',
    ]);
    expect(due.readers.some((r: { role: string }) => r.role === 'admin')).toBe(false);
  });
});

describe('link tokens in batch (POST /internal/tokens/links)', () => {
  it('signs a sign-in and an unsubscribe token per known user; unknown users are absent', async () => {
    const { id } = await auth.signIn('linky@example.com').then((s) => ({ id: s.user._id as string }));
    const unknown = 'f'.repeat(24);
    const res = await internal('/internal/tokens/links', { userIds: [id, unknown] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.links)).toEqual([id]);
    const signin = await auth.post(`/api/user/signinbytoken/${res.body.links[id].signin}`, {});
    expect(signin.body.user._id).toBe(id);
    const details = await auth.get(`/api/user/getnotificationdetails/${res.body.links[id].unsubscribe}`);
    expect(details.body.user.email).toBe('linky@example.com');
    // A sign-in token is no unsubscribe token.
    expect((await auth.get(`/api/user/getnotificationdetails/${res.body.links[id].signin}`)).status).toBe(
      401,
    );
  });

  it('refuses bad ids, empty batches and calls without the credential', async () => {
    expect((await internal('/internal/tokens/links', { userIds: ['nope'] })).status).toBe(400);
    expect((await internal('/internal/tokens/links', { userIds: [] })).status).toBe(400);
    expect((await internal('/internal/tokens/links', { userIds: ['f'.repeat(24)] }, null)).status).toBe(403);
  });
});

describe('cold and autoactive', () => {
  it('after the threshold of unopened e-mails a reader is autppause and type 1, gets no e-mail; an open warms them', async () => {
    const cold = await reader('cold@example.com', 'UTC', '09:00');
    await sendDays(cold.id, 2);
    expect((await statusOf(cold.id)).body.user.notification_status).toBe('active');
    await sendDays(cold.id, 1, 3);
    const after = (await statusOf(cold.id)).body.user;
    expect(after).toMatchObject({ notification_status: 'autppause', type: 1 });
    const at9 = '2026-11-24T09:00:00.000Z';
    expect((await dueAt(at9)).readers).toEqual([]);

    await auth.reminderHandlers[ReminderEvents.ReminderOpened.type]?.(
      fact(ReminderEvents.ReminderOpened.type, cold.id, '2026-10-03', { openedAt: new Date().toISOString() }),
    );
    expect((await statusOf(cold.id)).body.user).toMatchObject({ notification_status: 'autoactive', type: 0 });
    expect((await dueAt(at9)).readers.map((r: { email: string }) => r.email)).toEqual(['cold@example.com']);
    // The count started again: two more unopened are not enough.
    await sendDays(cold.id, 2, 10);
    expect((await statusOf(cold.id)).body.user.notification_status).toBe('autoactive');
  });

  it('a redelivered send counts once', async () => {
    const r = await reader('redelivered@example.com', 'UTC', '10:00');
    const event = fact(ReminderEvents.ReminderSent.type, r.id, '2026-10-01', sent);
    for (let i = 0; i < 5; i++) await auth.reminderHandlers[ReminderEvents.ReminderSent.type]?.(event);
    expect((await statusOf(r.id)).body.user.notification_status).toBe('active');
  });

  it('sends of one reader handled at the same time (each on its own stream, as the bus delivers them) all count', async () => {
    const r = await reader('together@example.com', 'UTC', '12:30');
    const handler = auth.reminderHandlers[ReminderEvents.ReminderSent.type];
    // coldAfter is 3: three sends at once make the reader cold, however their store calls interleave.
    await Promise.all(
      ['2026-10-01', '2026-10-02', '2026-10-03'].map((day) =>
        handler?.(fact(ReminderEvents.ReminderSent.type, r.id, day, sent)),
      ),
    );
    expect((await statusOf(r.id)).body.user).toMatchObject({ notification_status: 'autppause', type: 1 });
    const counts = await auth.store.collection<any>(REMINDER_COUNTS).findOne({ _id: r.id });
    expect(counts).toMatchObject({ unopened: 3 });
  });

  it('sends of many readers handled at the same time (a page of the bus) each count once: new and known readers, redeliveries', async () => {
    const known = await reader('batch-known@example.com', 'UTC', '13:00');
    const again = await reader('batch-again@example.com', 'UTC', '13:00');
    const fresh = await Promise.all(
      [1, 2, 3].map((i) => reader(`batch-new-${i}@example.com`, 'UTC', '13:00')),
    );
    await sendDays(known.id, 2);
    await sendDays(again.id, 1);
    const handler = auth.reminderHandlers[ReminderEvents.ReminderSent.type];
    const send = (id: string, day: string) =>
      handler?.(fact(ReminderEvents.ReminderSent.type, id, day, sent));
    await Promise.all([
      send(known.id, '2026-10-03'),
      send(again.id, '2026-10-01'), // counted before
      ...fresh.map((r) => send(r.id, '2026-10-01')),
      send(fresh[0]?.id as string, '2026-10-01'), // the same send twice at once
    ]);
    const counts = auth.store.collection<any>(REMINDER_COUNTS);
    expect(await counts.findOne({ _id: known.id })).toMatchObject({ unopened: 3, sends: 3 });
    expect((await statusOf(known.id)).body.user).toMatchObject({ notification_status: 'autppause', type: 1 });
    expect(await counts.findOne({ _id: again.id })).toMatchObject({ unopened: 1, sends: 1 });
    expect((await statusOf(again.id)).body.user.notification_status).toBe('active');
    for (const r of fresh)
      expect(await counts.findOne({ _id: r.id })).toMatchObject({
        unopened: 1,
        sends: 1,
        counted: [sendIdOf(r.id, '2026-10-01', 'email')],
      });
    // An open resets the count; the next sends of all of them at once count from there.
    await auth.reminderHandlers[ReminderEvents.ReminderOpened.type]?.(
      fact(ReminderEvents.ReminderOpened.type, known.id, '2026-10-03', {
        openedAt: new Date().toISOString(),
      }),
    );
    await Promise.all([known, again, ...fresh].map((r) => send(r.id, '2026-10-04')));
    expect(await counts.findOne({ _id: known.id })).toMatchObject({ unopened: 1, sends: 4 });
    expect(await counts.findOne({ _id: again.id })).toMatchObject({ unopened: 2, sends: 2 });
    for (const r of fresh)
      expect(await counts.findOne({ _id: r.id })).toMatchObject({ unopened: 2, sends: 2 });
  });

  it('keeps the send keys bounded, and a recent send redelivered still counts once', async () => {
    const r = await reader('many@example.com', 'UTC', '12:45');
    const handler = auth.reminderHandlers[ReminderEvents.ReminderSent.type];
    const days = Array.from(
      { length: 40 },
      (_, i) => `2026-0${1 + Math.floor(i / 20)}-${String(1 + (i % 20)).padStart(2, '0')}`,
    );
    for (const day of days) await handler?.(fact(ReminderEvents.ReminderSent.type, r.id, day, sent));
    const last = days.at(-1) as string;
    await handler?.(fact(ReminderEvents.ReminderSent.type, r.id, last, sent));
    const counts = await auth.store.collection<any>(REMINDER_COUNTS).findOne({ _id: r.id });
    expect(counts.unopened).toBe(40);
    // coldAfter 3: at most 2 * (3 + 5) keys are kept, the newest among them.
    expect(counts.counted.length).toBeLessThanOrEqual(16);
    expect(counts.counted).toContain(sendIdOf(r.id, last, 'email'));
  });

  it('a sign-in warms a cold reader; a click does too', async () => {
    const r = await reader('signin@example.com', 'UTC', '11:00');
    await sendDays(r.id, 3);
    expect((await statusOf(r.id)).body.user.notification_status).toBe('autppause');
    await auth.signIn('signin@example.com');
    expect((await statusOf(r.id)).body.user).toMatchObject({ notification_status: 'autoactive', type: 0 });
    // The sign-in started the count again: one more unopened e-mail does not make them cold at once.
    await sendDays(r.id, 1, 20);
    expect((await statusOf(r.id)).body.user.notification_status).toBe('autoactive');
    await sendDays(r.id, 2, 21);
    expect((await statusOf(r.id)).body.user.notification_status).toBe('autppause');
    await auth.reminderHandlers[ReminderEvents.ReminderClicked.type]?.(
      fact(ReminderEvents.ReminderClicked.type, r.id, '2026-10-22', { link: 'like', clickedAt: 'x' }),
    );
    expect((await statusOf(r.id)).body.user.notification_status).toBe('autoactive');
  });
});

describe('one-click unsubscribe (POST /api/user/unsubscribe/:id, RFC 8058)', () => {
  it('turns reminders off (never a toggle) and refuses a bad token', async () => {
    const r = await reader('oneclick@example.com', 'UTC', '12:00');
    const { links } = (await internal('/internal/tokens/links', { userIds: [r.id] })).body;
    for (let i = 0; i < 2; i++) {
      const res = await auth.post(`/api/user/unsubscribe/${links[r.id].unsubscribe}`, {});
      expect(res.status).toBe(200);
      expect(res.body.user).toEqual({
        email: 'oneclick@example.com',
        notiinfo: { time: '12:00', active: false },
      });
    }
    expect((await dueAt('2026-11-24T12:00:00.000Z')).readers).toEqual([]);
    const bad = await auth.post(`/api/user/unsubscribe/${links[r.id].signin}`, {});
    expect(bad.status).toBe(401);
    expect(bad.body.status).toBe(false);
  });
});

describe('due readers of one time in several zones', () => {
  it('pages through every zone where the time is due (one zone after another), each reader once', async () => {
    // In November London and Abidjan are at UTC+0: 08:00 there is due at 08:00 UTC, as in UTC itself.
    const more = [
      await reader('london-1@example.com', 'Europe/London', '08:00'),
      await reader('london-2@example.com', 'Europe/London', '08:00'),
      await reader('abidjan-1@example.com', 'Africa/Abidjan', '08:00'),
      await reader('abidjan-2@example.com', 'Africa/Abidjan', '08:00'),
      await reader('abidjan-3@example.com', 'Africa/Abidjan', '08:00'),
    ];
    const all = (await dueAt(AT_0800_UTC)).readers.map((r: { userId: string }) => r.userId);
    for (const r of more) expect(all).toContain(r.id);
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await dueAt(AT_0800_UTC, limit, cursor);
        expect(page.readers.length).toBeLessThanOrEqual(limit);
        seen.push(...page.readers.map((r: { userId: string }) => r.userId));
        cursor = page.next ?? undefined;
      } while (cursor);
      expect(seen.sort()).toEqual([...all].sort());
    }
  });
});

describe('due pages (POST /internal/reminders/due-pages): a slot cut into ranges sent in parallel', () => {
  /** Every due reader of the slot, each range read on its own (as parallel page activities read them). */
  async function readRanges(size: number, pages: number) {
    const ranges: { after?: string; until: string | null }[] = [];
    let cursor: string | undefined;
    do {
      const plan = (
        await internal('/internal/reminders/due-pages', {
          at: AT_0800_UTC,
          size,
          pages,
          ...(cursor ? { cursor } : {}),
        })
      ).body;
      let after = cursor;
      for (const until of plan.ends as (string | null)[]) {
        ranges.push({ ...(after ? { after } : {}), until });
        after = until ?? undefined;
      }
      cursor = plan.next ?? undefined;
    } while (cursor);
    const perRange: string[][] = [];
    for (const range of ranges) {
      const ids: string[] = [];
      let cursor = range.after;
      do {
        const page = (
          await internal('/internal/reminders/due', {
            at: AT_0800_UTC,
            limit: 2,
            ...(cursor ? { cursor } : {}),
            ...(range.until ? { until: range.until } : {}),
          })
        ).body;
        ids.push(...page.readers.map((r: { userId: string }) => r.userId));
        cursor = page.next ?? undefined;
      } while (cursor);
      perRange.push(ids);
    }
    return { ranges, perRange };
  }

  it('cuts the slot into ranges of at most `size` accounts; the ranges together hold each due reader once', async () => {
    const all = (await dueAt(AT_0800_UTC)).readers.map((r: { userId: string }) => r.userId).sort();
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const [size, pages] of [
      [1, 1],
      [2, 3],
      [3, 50],
      [500, 50],
    ] as const) {
      const { ranges, perRange } = await readRanges(size, pages);
      for (const ids of perRange) expect(ids.length).toBeLessThanOrEqual(size);
      expect(perRange.flat().sort()).toEqual(all);
      expect(ranges.length).toBeGreaterThanOrEqual(Math.ceil(all.length / size));
    }
    // An empty slot has no page.
    const empty = await internal('/internal/reminders/due-pages', { at: '2026-11-24T03:07:00.000Z' });
    expect(empty.body).toEqual({ status: true, ends: [], next: null });
    expect((await internal('/internal/reminders/due-pages', { at: AT_0800_UTC, size: 0 })).status).toBe(400);
  });

  it('a zone that gains its first due reader while a slot is sent moves no other range: nobody is skipped', async () => {
    const { ranges } = await readRanges(2, 50);
    const before = new Set((await dueAt(AT_0800_UTC)).readers.map((r: { userId: string }) => r.userId));
    // Sorts before every zone already due at 08:00 UTC ('Africa/Abidjan' ...).
    const newcomer = await reader('accra@example.com', 'Africa/Accra', '08:00');
    const seen: string[] = [];
    for (const range of ranges.slice(1)) {
      let cursor = range.after;
      do {
        const page = (
          await internal('/internal/reminders/due', {
            at: AT_0800_UTC,
            limit: 500,
            ...(cursor ? { cursor } : {}),
            ...(range.until ? { until: range.until } : {}),
          })
        ).body;
        seen.push(...page.readers.map((r: { userId: string }) => r.userId));
        cursor = page.next ?? undefined;
      } while (cursor);
    }
    const first = ranges[0] as { until: string | null };
    const firstPage = (
      await internal('/internal/reminders/due', {
        at: AT_0800_UTC,
        ...(first.until ? { until: first.until } : {}),
      })
    ).body;
    seen.push(...firstPage.readers.map((r: { userId: string }) => r.userId));
    for (const id of before) expect(seen).toContain(id);
    expect(newcomer.id).toBeTruthy();
  });
});
