import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, EngagementEvents, ReminderEvents } from '@nudge/contracts';
import { type DirectoryUser, newId } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { registeredData } from '../../test/harness';
import { createEmailStats } from '../app/email-stats';
import { createEventLog } from '../app/event-log';
import { createReportData } from '../app/report-data';
import { toEventRow } from '../domain/rows';
import { writeEvents } from '../events/ingest';
import { openChdbStore } from './chdb';
import { openClickHouseStore } from './clickhouse';
import { MIGRATIONS, migrate } from './migrations';
import { forIdChunks, IDS_PER_STATEMENT } from './params';
import type { AnalyticsStore } from './types';

const row = (def: { type: string; data: z.ZodType }, data: unknown, at: string, id = newId()) =>
  toEventRow({
    id,
    type: def.type,
    stream: `s-${id}`,
    occurredAt: at,
    actor: null,
    data: def.data.parse(data),
  });

/**
 * The analytics port's contract: the same schema and the same queries (the application's own) on every engine.
 * chDB always; a ClickHouse server where CLICKHOUSE_URL is set.
 */
function describeAnalyticsContract(
  name: string,
  open: () => Promise<AnalyticsStore>,
  cleanup: () => Promise<void>,
) {
  describe(`analytics contract: ${name}`, () => {
    let store: AnalyticsStore;
    const u1 = newId();
    const q1 = newId();
    const template = newId();
    beforeAll(async () => {
      store = await open();
      await migrate(store);
      const reg = (userId: string, at: string) =>
        row(AuthEvents.UserRegistered, registeredData(userId, `${userId}@x.test`), at);
      const send = {
        sendId: 'a'.repeat(32),
        userId: u1,
        channel: 'email' as const,
        localDate: '2026-10-01',
        templateId: template,
        subjectId: 'sub1',
      };
      const opened = row(
        ReminderEvents.ReminderOpened,
        { ...send, openedAt: '2026-10-01T09:00:00.000Z' },
        '2026-10-01T09:00:00.000Z',
      );
      await writeEvents(store, [
        reg(u1, '2026-09-10T00:00:00.000Z'),
        row(
          EngagementEvents.CheckinQuestionAdded,
          {
            questionId: q1,
            body: 'It\'s "quoted"',
            scale: 'reverse',
            order: 0,
            tags: [],
            status: true,
            createdAt: '2026-09-01T00:00:00.000Z',
          },
          '2026-09-01T00:00:00.000Z',
        ),
        row(
          EngagementEvents.CheckinQuestionSent,
          {
            checkinId: 'c1',
            userId: u1,
            questionId: q1,
            body: 'b',
            scale: 'reverse',
            qlidHash: 'h',
            sentAt: '2026-10-02T00:00:00.000Z',
            expiresAt: '2026-12-01T00:00:00.000Z',
          },
          '2026-10-02T00:00:00.000Z',
        ),
        row(
          EngagementEvents.CheckinAnswered,
          {
            checkinId: 'c1',
            userId: u1,
            questionId: q1,
            scale: 'reverse',
            answer: 2,
            score: 75,
            sentAt: '2026-10-02T00:00:00.000Z',
            answeredAt: '2026-10-03T00:00:00.000Z',
          },
          '2026-10-03T00:00:00.000Z',
        ),
        row(
          ReminderEvents.ReminderSent,
          {
            ...send,
            subject: 'Hi',
            slot: '08:00',
            timeZone: 'UTC',
            checkinQuestionId: null,
            locked: false,
            sentAt: '2026-10-01T08:00:00.000Z',
          },
          '2026-10-01T08:00:00.000Z',
        ),
        opened,
      ]);
      // A redelivery of the same rows (same ids) must not change any figure.
      await writeEvents(store, [opened]);
    }, 60_000);
    afterAll(async () => {
      await store?.close();
      await cleanup();
    }, 60_000);

    it('applies every migration once and records it', async () => {
      expect(await migrate(store)).toEqual([]);
      const recorded = await store.query<{ version: number }>(
        'SELECT version FROM schema_migrations FINAL ORDER BY version',
      );
      expect(recorded.map((r) => Number(r.version))).toEqual(MIGRATIONS.map((m) => m.version));
    });

    it('binds parameters in the engine (quotes, arrays, dates), never in the SQL text', async () => {
      const tricky = "x'); DROP TABLE events; --";
      const [r] = await store.query<{ s: string; n: number; d: string }>(
        'SELECT {s:String} AS s, length({a:Array(String)}) AS n, toString({d:Date}) AS d',
        { s: tricky, a: ['a', "b'c"], d: '2026-11-01' },
      );
      expect(r).toEqual({ s: tricky, n: 2, d: '2026-11-01' });
    });

    it("refuses parameters past a server's URL bound, and takes a long id list in chunks", async () => {
      const ids = Array.from({ length: 40_000 }, () => newId());
      await expect(
        store.query('SELECT count() AS n FROM (SELECT arrayJoin({ids:Array(String)}))', { ids }),
      ).rejects.toThrow(/exceed the 1048576 a ClickHouse server reads from a URL/);
      const counts = await forIdChunks(ids, (chunk) =>
        store.query<{ n: number }>('SELECT count() AS n FROM (SELECT arrayJoin({ids:Array(String)}))', {
          ids: chunk,
        }),
      );
      expect(counts.map((r) => Number(r.n))).toEqual(Array(8).fill(IDS_PER_STATEMENT));
    });

    it('streams a result in chunks', async () => {
      let total = 0;
      for await (const rows of store.stream<{ number: number }>('SELECT number FROM numbers({n:UInt32})', {
        n: 25_000,
      }))
        total += rows.length;
      expect(total).toBe(25_000);
    });

    it('a write that comes while a stream is open neither breaks the stream nor is lost', async () => {
      let total = 0;
      let write: Promise<void> | undefined;
      for await (const rows of store.stream<{ number: number }>('SELECT number FROM numbers({n:UInt32})', {
        n: 300_000,
      })) {
        total += rows.length;
        write ??= writeEvents(store, [
          row(
            EngagementEvents.CheckinQuestionUpdated,
            {
              questionId: 'during-stream',
              body: 'b',
              scale: 'normal',
              order: 1,
              tags: [],
              status: true,
              createdAt: '2026-09-01T00:00:00.000Z',
            },
            '2026-10-05T00:00:00.000Z',
          ),
        ]);
      }
      await write;
      expect(total).toBe(300_000);
      const [found] = await store.query<{ n: number }>(
        "SELECT count() AS n FROM events WHERE question_id = 'during-stream'",
      );
      expect(Number(found?.n)).toBe(1);
    });

    it('runs the report, event log and e-mail queries with the same figures', async () => {
      const data = createReportData({ analytics: store, clock: () => new Date('2026-10-20T00:00:00.000Z') });
      const page = await data.page([u1], 'monthly', 1, 6);
      expect(page.data).toEqual([
        {
          period: '2026-10',
          uniquePeopleCount: 1,
          activePeopleCount: 1,
          activePeoplePercentage: 100,
          questionsSent: 1,
          questionsAnswered: 1,
          responseRate: 100,
          answers: [{ qid: q1, total: 1 }],
        },
        {
          period: '2026-09',
          uniquePeopleCount: 1,
          activePeopleCount: 0,
          activePeoplePercentage: 0,
          questionsSent: 0,
          questionsAnswered: 0,
          responseRate: 0,
          answers: [],
        },
      ]);
      expect(page.questions).toEqual([{ _id: q1, body: 'It\'s "quoted"', scale: 'reverse' }]);
      const csv = await data.download([u1], 'quarterly');
      expect(csv.rows).toEqual([
        expect.objectContaining({ year: '2026', period: 'Q4', questionsAnswered: 1, [q1]: 1 }),
        expect.objectContaining({ year: '2026', period: 'Q3', questionsAnswered: 0, [q1]: 0 }),
      ]);

      const stats = await createEmailStats({ analytics: store }).read({
        templateIds: [template],
        userIds: [u1],
      });
      expect(stats.templates[template]).toEqual({
        emails_sent: 1,
        emails_open: 1,
        email_open_rate: 100,
        subjects: { sub1: { emails_sent: 1, emails_open: 1, email_open_rate: 100 } },
      });
      expect(stats.users[u1]?.last_email_open).toBe('2026-10-01T09:00:00.000Z');

      // The log shows each reader's address from reporting's user directory (rows hold none).
      const directory = {
        byEmail: async () => null,
        byIds: async (ids: string[]) =>
          new Map(ids.map((id) => [id, { _id: id, email: `${id}@x.test` } as DirectoryUser])),
      };
      const log = createEventLog({ analytics: store, directory });
      const first = await log.page(1, 10);
      expect(first.total).toBe(4); // sign_up, checkin_answer, email_sent, email_open (once); questions are not log rows
      expect(first.data[0]).toMatchObject({
        eventType: 'checkin_answer',
        userId: u1,
        userEmail: `${u1}@x.test`,
      });
      let csvText = '';
      for await (const chunk of log.csv()) csvText += chunk;
      expect(csvText.trim().split('\r\n')).toHaveLength(1 + first.total);
    });
  });
}

// ---- chDB: always ---------------------------------------------------------------------------------------------
let chdbDir = '';
describeAnalyticsContract(
  'chDB (ClickHouse in its own process)',
  async () => {
    chdbDir = await mkdtemp(join(tmpdir(), 'nudge-analytics-'));
    return openChdbStore(chdbDir);
  },
  async () => {
    if (chdbDir) await rm(chdbDir, { recursive: true, force: true });
  },
);

// ---- an existing store upgrades: migration 3 fills report_user_months from the rows already in events ----------
describe('analytics: upgrading a version-2 store (chDB)', () => {
  let dir = '';
  let store: AnalyticsStore;
  afterAll(async () => {
    await store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives the same figures after migrations 3 and 4 (a set filled under 3 included), and the views keep them current without doubling', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nudge-analytics-upgrade-'));
    store = await openChdbStore(dir);
    expect(
      await migrate(
        store,
        MIGRATIONS.filter((m) => m.version <= 2),
      ),
    ).toEqual([1, 2]);
    const u = newId();
    const q = newId();
    const checkin = (
      type: typeof EngagementEvents.CheckinAnswered | typeof EngagementEvents.CheckinQuestionSent,
      at: string,
      user = u,
      question = q,
    ) =>
      row(
        type,
        type === EngagementEvents.CheckinAnswered
          ? {
              checkinId: 'c',
              userId: user,
              questionId: question,
              scale: 'normal',
              answer: 1,
              score: 0,
              sentAt: at,
              answeredAt: at,
            }
          : {
              checkinId: 'c',
              userId: user,
              questionId: question,
              body: 'b',
              scale: 'normal',
              qlidHash: 'h',
              sentAt: at,
              expiresAt: at,
            },
        at,
      );
    const answered = checkin(EngagementEvents.CheckinAnswered, '2026-10-03T00:00:00.000Z');
    await writeEvents(store, [
      row(AuthEvents.UserRegistered, registeredData(u, `${u}@x.test`), '2026-09-10T00:00:00.000Z'),
      checkin(EngagementEvents.CheckinQuestionSent, '2026-10-02T00:00:00.000Z'),
      answered,
    ]);
    expect(
      await migrate(
        store,
        MIGRATIONS.filter((m) => m.version <= 3),
      ),
    ).toEqual([3]);
    const data = createReportData({ analytics: store, clock: () => new Date('2026-11-20T00:00:00.000Z') });
    // The list's first view under version 3 fills its set; the read needs version 4's table.
    await expect(data.page([u], 'monthly', 1, 6)).rejects.toThrow(/report_set_periods/);
    // Migration 4 fills report_set_periods from the set filled under version 3.
    expect(
      await migrate(
        store,
        MIGRATIONS.filter((m) => m.version <= 4),
      ),
    ).toEqual([4]);
    const october = async () =>
      (await data.page([u], 'monthly', 1, 6)).data.find((r) => r.period === '2026-10');
    expect(await october()).toMatchObject({ activePeopleCount: 1, questionsSent: 1, questionsAnswered: 1 });
    // After the upgrade the view maintains it: a new send counts, a redelivered answer does not.
    await writeEvents(store, [
      checkin(EngagementEvents.CheckinQuestionSent, '2026-10-04T00:00:00.000Z'),
      answered,
    ]);
    expect(await october()).toMatchObject({
      activePeopleCount: 1,
      questionsSent: 2,
      questionsAnswered: 1,
      responseRate: 50,
      answers: [{ qid: q, total: 1 }],
    });
    // Another list of users (a report's members changed) is another set, filled from what is already stored.
    const other = newId();
    await writeEvents(store, [
      row(AuthEvents.UserRegistered, registeredData(other, `${other}@x.test`), '2026-09-11T00:00:00.000Z'),
      checkin(EngagementEvents.CheckinQuestionSent, '2026-10-05T00:00:00.000Z', other),
    ]);
    const both = (await data.page([other, u], 'monthly', 1, 6)).data.find((r) => r.period === '2026-10');
    expect(both).toMatchObject({
      uniquePeopleCount: 2,
      activePeopleCount: 1,
      questionsSent: 3,
      questionsAnswered: 1,
    });
    expect(await october()).toMatchObject({ uniquePeopleCount: 1, questionsSent: 2 });
    // A question first sent after the set was filled reaches its list through the cascaded views.
    const q2 = newId();
    await writeEvents(store, [
      checkin(EngagementEvents.CheckinQuestionSent, '2026-10-06T00:00:00.000Z', u, q2),
    ]);
    const page = await data.page([u], 'monthly', 1, 6);
    expect(page.data.find((r) => r.period === '2026-10')?.answers).toEqual(
      [
        { qid: q, total: 1 },
        { qid: q2, total: 0 },
      ].sort((a, b) => a.qid.localeCompare(b.qid)),
    );
    expect(
      (
        await store.query<{ q: string[] }>(
          "SELECT groupUniqArrayArray(questions) AS q FROM report_set_users WHERE set_id != ''",
        )
      )[0]?.q,
    ).toContain(q2);
  });
});

describe('analytics: upgrading a version-4 store (chDB)', () => {
  let dir = '';
  let store: AnalyticsStore;
  afterAll(async () => {
    await store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the event log's user filter finds the events from before the user indexes and after them", async () => {
    dir = await mkdtemp(join(tmpdir(), 'nudge-analytics-upgrade-'));
    store = await openChdbStore(dir);
    await migrate(
      store,
      MIGRATIONS.filter((m) => m.version <= 4),
    );
    const web = (id: string, userId: string, at: string) =>
      store.insert('events', [
        {
          id,
          type: 'reporting.WebEvent.v1',
          stream: '',
          user_id: userId,
          user_email: '',
          occurred_at: at,
          log_type: 'page_visit',
          log_value: id,
          template_id: '',
          subject_id: '',
          question_id: '',
          send_id: '',
          channel: '',
          metadata: {},
          data: '{}',
        },
      ]);
    await web('before', 'u-early', '2026-10-01T00:00:00.000Z');
    await web('other', 'u-other', '2026-10-01T00:00:01.000Z');
    expect(await migrate(store)).toEqual([5]);
    await web('after', 'u-early', '2026-10-02T00:00:00.000Z');
    const directory = {
      byEmail: async (email: string) =>
        email === 'early@x.test' ? ({ _id: 'u-early', email } as DirectoryUser) : null,
      byIds: async (ids: string[]) =>
        new Map(ids.map((id) => [id, { _id: id, email: `${id}@x.test` } as DirectoryUser])),
    };
    const found = await createEventLog({ analytics: store, directory }).page(1, 10, {
      email: 'early@x.test',
    });
    expect(found).toMatchObject({ total: 2, data: [{ _id: 'after' }, { _id: 'before' }] });
  });
});

// ---- a ClickHouse server: where CLICKHOUSE_URL is set ---------------------------------------------------------
const serverUrl = process.env.CLICKHOUSE_URL;
if (!serverUrl) console.log('[contract] analytics / clickhouse server: skipped: no CLICKHOUSE_URL');
describe.runIf(Boolean(serverUrl))('clickhouse server', () => {
  const database = `nudge_contract_${Date.now().toString(36)}`;
  const opts = {
    url: serverUrl ?? '',
    username: process.env.CLICKHOUSE_USER ?? 'default',
    password: process.env.CLICKHOUSE_PASSWORD ?? '',
    database,
  };
  describeAnalyticsContract(
    'ClickHouse server',
    () => openClickHouseStore(opts),
    async () => {
      const admin = await openClickHouseStore({ ...opts, database: 'default' });
      await admin.exec(`DROP DATABASE IF EXISTS ${database}`);
      await admin.close();
    },
  );
});

// ---- the engine's own process: a crash fails the calls in flight with a 503, and the next call has an engine ----
describe('analytics: chDB in a child process', () => {
  let dir = '';
  let store: AnalyticsStore;
  afterAll(async () => {
    await store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs queries off this process; a killed engine is restarted, a read is retried, a write fails with 503', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nudge-analytics-child-'));
    const crashes: unknown[] = [];
    store = await openChdbStore(dir, { onCrash: (info) => crashes.push(info) });
    await store.exec('CREATE TABLE kept (n UInt64) ENGINE = MergeTree ORDER BY n');
    await store.insert('kept', [{ n: 1 }, { n: 2 }]);
    const first = await store.engineProcess?.();
    expect(first?.pid).toBeGreaterThan(0);
    expect(first?.pid).not.toBe(process.pid);
    expect(first?.rssBytes).toBeGreaterThan(50 * 1024 * 1024);

    // A long query does not hold this process's event loop.
    const slow = 'SELECT count() AS n FROM numbers(150000000) WHERE sipHash64(number) % 7 = 1';
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const read = store.query<{ n: number }>(slow);
    const write = store.exec(slow).then(
      () => 'done',
      (err: { httpStatus?: number; message: string }) => `${err.httpStatus} ${err.message}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(10);
    process.kill(first?.pid ?? 0, 'SIGKILL');

    expect(await write).toBe('503 The analytics engine stopped unexpectedly; please try again');
    // The read was asked again of the new engine, and answered.
    expect(Number((await read)[0]?.n)).toBeGreaterThan(15_000_000);
    expect(crashes).toEqual([{ code: null, signal: 'SIGKILL' }]);
    const second = await store.engineProcess?.();
    expect(second?.pid).not.toBe(first?.pid);
    // The data on disk is the new engine's.
    expect(await store.query<{ n: number }>('SELECT sum(n) AS n FROM kept')).toEqual([{ n: 3 }]);
    await store.close();
    await expect(store.query('SELECT 1')).rejects.toMatchObject({ httpStatus: 503 });
  }, 60_000);
});

// ---- an idle engine gives its memory back: its process stops, and the next call starts one on the same data ----
describe('analytics: chDB stopped when idle', () => {
  let dir = '';
  let store: AnalyticsStore | undefined;
  afterAll(async () => {
    await store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  it('stops the process after the idle time, keeps it while a stream is read, and starts it again on a call', async () => {
    dir = await mkdtemp(join(tmpdir(), 'nudge-analytics-idle-'));
    let idleStops = 0;
    const crashes: unknown[] = [];
    store = await openChdbStore(dir, {
      idleStopMs: 400,
      onIdleStop: () => idleStops++,
      onCrash: (info) => crashes.push(info),
    });
    await store.exec('CREATE TABLE kept (n UInt64) ENGINE = MergeTree ORDER BY n');
    await store.insert('kept', [{ n: 1 }, { n: 2 }]);
    const first = await store.engineProcess?.();
    expect(first?.pid).toBeGreaterThan(0);
    const firstPid = first?.pid ?? 0;

    // No call for the idle time: the process is gone, and a readiness ping does not start one.
    await expect.poll(() => alive(firstPid), { timeout: 5_000, interval: 20 }).toBe(false);
    expect(idleStops).toBe(1);
    await store.ping();
    expect(await store.engineProcess?.()).toBeNull();

    // The next call starts an engine on the same directory: the data is there.
    expect(await store.query<{ n: number }>('SELECT sum(n) AS n FROM kept')).toEqual([{ n: 3 }]);
    const second = await store.engineProcess?.();
    expect(second?.pid).toBeGreaterThan(0);
    expect(second?.pid).not.toBe(firstPid);

    // A stream read slowly (longer than the idle time between chunks) keeps its engine until it ended.
    const seen: number[] = [];
    for await (const rows of store.stream<{ n: number }>('SELECT number AS n FROM numbers(200000)')) {
      seen.push(rows.length);
      if (seen.length <= 2) await new Promise((r) => setTimeout(r, 600));
    }
    expect(seen.reduce((a, b) => a + b, 0)).toBe(200_000);
    expect(alive(second?.pid ?? 0)).toBe(true);
    expect(idleStops).toBe(1);

    // Idle again: stopped again; nothing of this counted as a crash.
    await expect.poll(() => alive(second?.pid ?? 0), { timeout: 5_000, interval: 20 }).toBe(false);
    expect(idleStops).toBe(2);
    expect(crashes).toEqual([]);
    await store.insert('kept', [{ n: 4 }]);
    expect(await store.query<{ n: number }>('SELECT sum(n) AS n FROM kept')).toEqual([{ n: 7 }]);
    await store.close();
    store = undefined;
  }, 60_000);
});
