import { ReminderEvents } from '@nudge/contracts';
import {
  createEmbeddedStore,
  type EventEnvelope,
  sendIdOf,
  signTracking,
  trackingSecret,
  trackingSigner,
} from '@nudge/platform';
import { internalPost } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createRemindersProjection, reminderSendsCollection } from '../src/events/reminders-projection';
import { type Harness, INTERNAL_TOKEN, PUBLIC_URL, sendOf, startEngagement } from './harness';

// Engagement owns the reminder facts: sends (once per send key), opens (once per send), clicks; and issues
// check-in questions for a batch of readers.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const internal = (
  harness: Harness,
  path: string,
  body: unknown,
  credential: string | null = INTERNAL_TOKEN,
) => internalPost(harness.url, path, body, credential);

const USER = 'a'.repeat(24);
const secret = trackingSecret(INTERNAL_TOKEN);
const claims = (s: ReturnType<typeof sendOf>) => ({
  sendId: s.sendId,
  userId: s.userId,
  channel: s.channel,
  localDate: s.localDate,
  templateId: s.templateId,
  subjectId: s.subjectId,
});
const get = (harness: Harness, path: string) => fetch(`${harness.url}${path}`, { redirect: 'manual' });

describe('reminder sends projection', () => {
  it("applies a batch's sends in one go, and a replay of some of them (catch-up after a crash) once each", async () => {
    const store = createEmbeddedStore();
    try {
      const projection = createRemindersProjection(store);
      const envelope = (s: ReturnType<typeof sendOf>): EventEnvelope => ({
        id: s.sendId,
        type: ReminderEvents.ReminderSent.type,
        stream: `reminder-${s.sendId}`,
        version: 1,
        occurredAt: s.sentAt,
        actor: 'system',
        data: s,
        meta: {},
      });
      const days = ['2026-11-24', '2026-11-25', '2026-11-26'].map((d) => envelope(sendOf(USER, d)));
      await projection.applyMany(days.slice(0, 2));
      await projection.applyMany(days);
      const docs = await reminderSendsCollection(store).find({}, { sort: { localDate: 1 } });
      expect(docs.map((d) => [d.localDate, d.opened, d.clicks, d.version])).toEqual([
        ['2026-11-24', false, 0, 1],
        ['2026-11-25', false, 0, 1],
        ['2026-11-26', false, 0, 1],
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('reminder sends (internal)', () => {
  it('records a send once per send key, whatever the retries', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    const b = sendOf(USER, '2026-11-25');
    expect(
      (await internal(h, '/internal/reminders/recorded', { sendIds: [a.sendId, b.sendId] })).body,
    ).toEqual({
      status: true,
      recorded: [],
      opened: [],
      clicked: [],
    });
    expect((await internal(h, '/internal/reminders/sent', { sends: [a] })).body).toEqual({
      status: true,
      recorded: 1,
      duplicates: 0,
    });
    expect((await internal(h, '/internal/reminders/sent', { sends: [a, b] })).body).toEqual({
      status: true,
      recorded: 1,
      duplicates: 1,
    });
    const recorded = (await internal(h, '/internal/reminders/recorded', { sendIds: [a.sendId, b.sendId] }))
      .body;
    expect(recorded.recorded.sort()).toEqual([a.sendId, b.sendId].sort());
    const events = await h.ownEvents(ReminderEvents.ReminderSent.type);
    expect(events).toHaveLength(2);
    expect(events[0]?.stream).toBe(`reminder-${a.sendId}`);
  });

  it('accepts a full batch of 1,000 sends (the largest REMINDER_BATCH_SIZE), above the default body limit', async () => {
    h = await startEngagement();
    const userOf = (i: number) => (i + 5000).toString(16).padStart(24, '0');
    const sends = Array.from({ length: 1000 }, (_, i) => sendOf(userOf(i), '2026-11-26'));
    expect(JSON.stringify({ sends }).length).toBeGreaterThan(100 * 1024);
    const reply = await internal(h, '/internal/reminders/sent', { sends });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: true, recorded: 1000, duplicates: 0 });
  });

  it('records a batch in one appendMany, each send once: a batch overlapping an earlier one records only the new sends', async () => {
    h = await startEngagement();
    const userOf = (i: number) => i.toString(16).padStart(24, '0');
    const first = Array.from({ length: 100 }, (_, i) => sendOf(userOf(i), '2026-11-24'));
    // The 100 above again, 149 new, and one of the new ones twice.
    const second = [
      ...first,
      ...Array.from({ length: 149 }, (_, i) => sendOf(userOf(100 + i), '2026-11-24')),
      sendOf(userOf(100), '2026-11-24'),
    ];
    expect((await internal(h, '/internal/reminders/sent', { sends: first })).body).toEqual({
      status: true,
      recorded: 100,
      duplicates: 0,
    });
    expect((await internal(h, '/internal/reminders/sent', { sends: second })).body).toEqual({
      status: true,
      recorded: 149,
      duplicates: 101,
    });
    const events = await h.ownEvents(ReminderEvents.ReminderSent.type);
    expect(events).toHaveLength(249);
    expect(new Set(events.map((e) => e.stream)).size).toBe(249);
    const recorded = (
      await internal(h, '/internal/reminders/recorded', {
        sendIds: [first[0]?.sendId, second[248]?.sendId, sendOf(userOf(5000), '2026-11-24').sendId],
      })
    ).body;
    expect(recorded.recorded.sort()).toEqual([first[0]?.sendId, second[248]?.sendId].sort());
  });

  it('refuses calls without the credential and bad batches, and records nothing then', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    expect((await internal(h, '/internal/reminders/sent', { sends: [a] }, null)).status).toBe(403);
    expect(
      (await internal(h, '/internal/reminders/recorded', { sendIds: [a.sendId] }, 'x'.repeat(40))).status,
    ).toBe(403);
    const bad = await internal(h, '/internal/reminders/sent', { sends: [{ ...a, sendId: 'short' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: false, message: expect.any(String) });
    expect((await internal(h, '/internal/reminders/sent', { sends: [] })).status).toBe(400);
    expect((await internal(h, '/internal/checkin/issue-batch', { userIds: ['x'] })).status).toBe(400);
    expect(await h.ownEvents(ReminderEvents.ReminderSent.type)).toEqual([]);
  });
});

describe('open and click tracking (public)', () => {
  it('the open image answers a GIF and records one open per send, however often it loads', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    await internal(h, '/internal/reminders/sent', { sends: [a] });
    const token = signTracking(secret, claims(a));
    for (let i = 0; i < 3; i++) {
      const res = await get(h, `/api/reminder/open/${token}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
    }
    const opens = await h.ownEvents(ReminderEvents.ReminderOpened.type);
    expect(opens).toHaveLength(1);
    expect(opens[0]?.data).toMatchObject({
      sendId: a.sendId,
      userId: USER,
      subjectId: 's1',
      localDate: '2026-11-24',
    });
  });

  it('a click records the link kind and redirects to the signed destination on our site', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    await internal(h, '/internal/reminders/sent', { sends: [a] });
    const token = signTracking(secret, { ...claims(a), link: 'like', to: '/post/p1?uid=u&a=like' });
    const res = await get(h, `/api/reminder/go/${token}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${PUBLIC_URL}/post/p1?uid=u&a=like`);
    const clicks = await h.ownEvents(ReminderEvents.ReminderClicked.type);
    expect(clicks.map((c) => (c.data as { link: string }).link)).toEqual(['like']);
    expect((await internal(h, '/internal/reminders/recorded', { sendIds: [a.sendId] })).body.clicked).toEqual(
      [a.sendId],
    );
  });

  it('a link of the current format puts the reader’s link token (u) after its signed destination, never outside it', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    await internal(h, '/internal/reminders/sent', { sends: [a] });
    const sign = trackingSigner(secret, claims(a));
    const cases: Array<[string, string]> = [
      [
        `${sign.click('continue_reading', '/post/p1?uid=')}?u=${encodeURIComponent('h.p/s+g=')}`,
        '/post/p1?uid=h.p%2Fs%2Bg%3D',
      ],
      [`${sign.click('like', '/post/p1?a=like&uid=')}?u=x.y`, '/post/p1?a=like&uid=x.y'],
      [
        `${sign.click('unsubscribe', '/unsubscribe/')}?u=${encodeURIComponent('/../evil?x#y')}`,
        '/unsubscribe/%2F..%2Fevil%3Fx%23y',
      ],
      [`${sign.click('upgrade', '/')}?u=${encodeURIComponent('/evil.example/')}`, '/%2Fevil.example%2F'],
      [sign.click('upgrade', '/setting'), '/setting'],
    ];
    for (const [token, to] of cases) {
      const res = await get(h, `/api/reminder/go/${token}`);
      expect(res.status, token).toBe(302);
      expect(res.headers.get('location')).toBe(`${PUBLIC_URL}${to}`);
    }
    const clicks = await h.ownEvents(ReminderEvents.ReminderClicked.type);
    expect(clicks.map((c) => (c.data as { link: string }).link)).toEqual([
      'continue_reading',
      'like',
      'unsubscribe',
      'upgrade',
      'upgrade',
    ]);
    expect((await get(h, `/api/reminder/open/${sign.open()}`)).status).toBe(200);
    expect(await h.ownEvents(ReminderEvents.ReminderOpened.type)).toHaveLength(1);
  });

  it('refuses forged, tampered and foreign-destination tokens with 400, recording nothing', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    await internal(h, '/internal/reminders/sent', { sends: [a] });
    const forged = signTracking(Buffer.from('not our secret'), claims(a));
    const good = signTracking(secret, { ...claims(a), link: 'like', to: '/post/p1' });
    const tampered = `${Buffer.from(JSON.stringify({ ...claims(a), link: 'like', to: '/x' })).toString('base64url')}.${good.split('.')[1]}`;
    const away = signTracking(secret, { ...claims(a), link: 'like', to: 'https://evil.example/' });
    for (const path of [
      `/api/reminder/open/${forged}`,
      `/api/reminder/open/garbage-token`,
      `/api/reminder/go/${tampered}`,
      `/api/reminder/go/${away}`,
      `/api/reminder/go/${signTracking(secret, claims(a))}`,
    ]) {
      const res = await get(h, path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({ status: false, message: 'This link is not valid' });
    }
    expect(await h.ownEvents(ReminderEvents.ReminderOpened.type)).toEqual([]);
    expect(await h.ownEvents(ReminderEvents.ReminderClicked.type)).toEqual([]);
  });

  it('an open of a send never recorded records nothing', async () => {
    h = await startEngagement();
    const a = sendOf(USER, '2026-11-24');
    expect((await get(h, `/api/reminder/open/${signTracking(secret, claims(a))}`)).status).toBe(200);
    expect(await h.ownEvents(ReminderEvents.ReminderOpened.type)).toEqual([]);
  });
});

describe('check-in questions for a batch (internal)', () => {
  it('issues the next active question to each user; none when no question is active', async () => {
    h = await startEngagement();
    const admin = await h.user({ role: 'admin' });
    const r1 = await h.user();
    const r2 = await h.user();
    expect((await internal(h, '/internal/checkin/issue-batch', { userIds: [r1.userId] })).body).toEqual({
      status: true,
      checkins: {},
    });
    await h.post('/api/checkin/add', { token: admin.token, body: 'Second', order: 2 });
    await h.post('/api/checkin/add', { token: admin.token, body: 'First', order: 1 });
    const res = await internal(h, '/internal/checkin/issue-batch', { userIds: [r1.userId, r2.userId] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.checkins).sort()).toEqual([r1.userId, r2.userId].sort());
    expect(res.body.checkins[r1.userId].question.body).toBe('First');
    expect(res.body.checkins[r1.userId].links).toHaveLength(5);
    // The next one for r1 is the question not sent to them yet.
    const next = await internal(h, '/internal/checkin/issue-batch', { userIds: [r1.userId] });
    expect(next.body.checkins[r1.userId].question.body).toBe('Second');
  });
});

describe('claiming sends before delivery (internal)', () => {
  const SLOT = '2026-11-24T08:00:00.000Z';
  const OTHER_SLOT = '2026-11-24T09:00:00.000Z';
  const email = (n: number) => ({
    sendId: sendOf(String(n).padStart(24, '0'), '2026-11-24').sendId,
    channel: 'email' as const,
    localDate: '2026-11-24',
  });
  const claim = (harness: Harness, slot: string, sends: unknown[], extra: object = {}) =>
    internal(harness, '/internal/reminders/claim', { slot, sends, ...extra });

  it('gives each key to one slot: a new key is claimed, a second ask of the slot is in doubt, another slot is refused, a recorded one is recorded', async () => {
    h = await startEngagement();
    const [a, b] = [email(1), email(2)];
    expect((await claim(h, SLOT, [a])).body).toEqual({
      status: true,
      claimed: [a.sendId],
      recorded: [],
      inDoubt: [],
      elsewhere: [],
      overLimit: [],
    });
    const again = (await claim(h, SLOT, [a, b])).body;
    expect(again).toMatchObject({ claimed: [b.sendId], inDoubt: [a.sendId] });
    expect((await claim(h, OTHER_SLOT, [a, b])).body).toMatchObject({
      claimed: [],
      elsewhere: [a.sendId, b.sendId],
    });
    const sent = { ...sendOf(`${'0'.repeat(23)}1`, '2026-11-24') };
    expect(sent.sendId).toBe(a.sendId);
    await internal(h, '/internal/reminders/sent', { sends: [sent] });
    expect((await claim(h, SLOT, [a])).body).toMatchObject({ claimed: [], recorded: [a.sendId] });
  });

  it('of two slots claiming the same keys at once, each key goes to exactly one', async () => {
    h = await startEngagement();
    const sends = Array.from({ length: 300 }, (_, i) => email(100 + i));
    const [first, second] = await Promise.all([claim(h, SLOT, sends), claim(h, OTHER_SLOT, sends)]);
    const won = [...first.body.claimed, ...second.body.claimed];
    expect(won.sort()).toEqual(sends.map((s) => s.sendId).sort());
    expect(first.body.elsewhere.length + second.body.elsewhere.length).toBe(sends.length);
  });

  it('keeps WhatsApp to the daily number of distinct recipients; a number already reached today is not counted again', async () => {
    h = await startEngagement();
    const wa = (n: number, to: string, day = '2026-11-24') => ({
      sendId: sendIdOf(String(n).padStart(24, '0'), day, 'whatsapp'),
      channel: 'whatsapp' as const,
      localDate: day,
      to,
    });
    const limit = { whatsappDailyRecipients: 2 };
    const first = (await claim(h, SLOT, [wa(1, '+911'), wa(2, '+912'), wa(3, '+913')], limit)).body;
    expect(first.claimed).toEqual([wa(1, '+911').sendId, wa(2, '+912').sendId]);
    expect(first.overLimit).toEqual([wa(3, '+913').sendId]);
    // The same number on its next day's send, within 24 hours: no new recipient.
    const next = (await claim(h, OTHER_SLOT, [wa(1, '+911', '2026-11-25'), email(9)], limit)).body;
    expect(next.claimed).toEqual([wa(1, '+911', '2026-11-25').sendId, email(9).sendId]);
    // A day later the count starts again.
    h.clock.now = new Date(h.clock.now.getTime() + 25 * 3600_000);
    expect((await claim(h, SLOT, [wa(3, '+913')], limit)).body.claimed).toEqual([wa(3, '+913').sendId]);
  });

  it('refuses calls without the credential and bad batches, claiming nothing', async () => {
    h = await startEngagement();
    expect(
      (await internal(h, '/internal/reminders/claim', { slot: SLOT, sends: [email(1)] }, null)).status,
    ).toBe(403);
    for (const body of [
      { slot: 'now', sends: [email(1)] },
      { slot: SLOT, sends: [] },
      { slot: SLOT, sends: [{ ...email(1), sendId: 'x' }] },
    ]) {
      const res = await internal(h, '/internal/reminders/claim', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: false, message: expect.any(String) });
    }
    expect((await claim(h, SLOT, [email(1)])).body.claimed).toEqual([email(1).sendId]);
  });
});
