import { ReminderEvents } from '@nudge/contracts';
import { newId } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, INTERNAL_TOKEN, startReporting, type TestUser } from './harness';

let h: Harness;
let A: TestUser;
let B: TestUser;
let C: TestUser;
const T1 = newId();
const S1 = newId();
const S2 = newId();

const facts = (user: TestUser, channel: 'email' | 'whatsapp', subjectId: string | null, n: number) => ({
  sendId: `${user.userId}${n}`.padEnd(32, '0').slice(0, 32),
  userId: user.userId,
  channel,
  localDate: '2026-11-10',
  templateId: T1,
  subjectId,
});

const stats = (body: unknown, token = INTERNAL_TOKEN) =>
  fetch(`${h.url}/internal/email-stats`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': token },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  h = await startReporting();
  A = await h.user();
  B = await h.user();
  C = await h.user();
  const sent = (f: ReturnType<typeof facts>, at: string) =>
    h.event(
      ReminderEvents.ReminderSent,
      {
        ...f,
        subject: 'Hello',
        slot: '08:00',
        timeZone: 'UTC',
        checkinQuestionId: null,
        locked: false,
        sentAt: at,
      },
      at,
      `reminder-${f.sendId}`,
    );
  const opened = (f: ReturnType<typeof facts>, at: string) =>
    h.event(ReminderEvents.ReminderOpened, { ...f, openedAt: at }, at, `reminder-${f.sendId}`);
  const a = facts(A, 'email', S1, 1);
  const b = facts(B, 'email', S1, 1);
  const c = facts(C, 'email', S2, 1);
  const aWhatsApp = facts(A, 'whatsapp', null, 2);
  const openA = opened(a, '2026-11-10T09:00:00.000Z');
  await h.publish('engagement', [
    sent(a, '2026-11-10T08:00:00.000Z'),
    sent(b, '2026-11-10T08:00:00.000Z'),
    sent(c, '2026-11-10T08:00:00.000Z'),
    sent(aWhatsApp, '2026-11-10T08:00:00.000Z'),
    openA,
    opened(c, '2026-11-10T10:00:00.000Z'),
    openA,
  ]);
  const { AuthEvents } = await import('@nudge/contracts');
  await h.publish('auth', [
    h.event(AuthEvents.UserSignedIn, { userId: A.userId, method: 'link' }, '2026-11-11T07:00:00.000Z'),
  ]);
});
afterAll(() => h?.close());

describe('POST /internal/email-stats', () => {
  it('counts e-mail sends and opens per post, subject line and user (WhatsApp and repeats not counted)', async () => {
    const res = await stats({ templateIds: [T1, 'unknown'], userIds: [A.userId, B.userId, 'nobody'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: true,
      templates: {
        [T1]: {
          emails_sent: 3,
          emails_open: 2,
          email_open_rate: 66.7,
          subjects: {
            [S1]: { emails_sent: 2, emails_open: 1, email_open_rate: 50 },
            [S2]: { emails_sent: 1, emails_open: 1, email_open_rate: 100 },
          },
        },
      },
      users: {
        [A.userId]: {
          emails_sent: 1,
          emails_open: 1,
          email_open_rate: 100,
          last_email_open: '2026-11-10T09:00:00.000Z',
          last_app_login: '2026-11-11T07:00:00.000Z',
        },
        [B.userId]: {
          emails_sent: 1,
          emails_open: 0,
          email_open_rate: 0,
          last_email_open: null,
          last_app_login: null,
        },
      },
    });
  });

  it('refuses callers without the internal credential and more than 1000 ids', async () => {
    expect((await stats({ userIds: [] }, 'x'.repeat(40))).status).toBe(403);
    const tooMany = await stats({ userIds: Array.from({ length: 1001 }, (_, i) => `u${i}`) });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { message: string }).message).toMatch(/at most 1000/);
  });
});
