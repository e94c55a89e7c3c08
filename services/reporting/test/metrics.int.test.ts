import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setIdOf } from '../src/app/report-data';
import { seedDataset } from './dataset';
import { type Harness, startReporting, type TestUser } from './harness';

let h: Harness;
let admin: TestUser;
let set: Awaited<ReturnType<typeof seedDataset>>;
let reportId: string;

beforeAll(async () => {
  h = await startReporting({ now: new Date('2026-11-20T12:00:00.000Z') });
  admin = await h.user({ role: 'admin', registeredAt: '2026-01-01T00:00:00.000Z' });
  set = await seedDataset(h);
  const res = await h.post(
    '/api/report/add',
    {
      name: 'Metrics',
      logo: 'https://x.test/l.png',
      monitoredUsers: [set.A.userId, set.B.userId, set.C.userId],
    },
    admin.token,
  );
  reportId = res.body.report._id;
}, 60_000);
afterAll(() => h?.close());

const data = (query: string) => h.post(`/api/report/data?id=${reportId}&${query}`, {}, admin.token);

// Hand-computed (see dataset.ts):
const NOV = (q1: string, q2: string) => ({
  period: '2026-11',
  uniquePeopleCount: 3,
  activePeopleCount: 2, // C (page visit, answer), A (e-mail open)
  activePeoplePercentage: 66.7,
  questionsSent: 2,
  questionsAnswered: 1,
  responseRate: 50,
  answers: [
    { qid: q1, total: 0 },
    { qid: q2, total: 1 },
  ].sort((a, b) => a.qid.localeCompare(b.qid)),
});
const OCT = (q1: string) => ({
  period: '2026-10',
  uniquePeopleCount: 2,
  activePeopleCount: 2, // A read and answered, B liked
  activePeoplePercentage: 100,
  questionsSent: 2,
  questionsAnswered: 1,
  responseRate: 50,
  answers: [{ qid: q1, total: 1 }],
});
const SEP = {
  period: '2026-09',
  uniquePeopleCount: 1,
  activePeopleCount: 1, // A signed in (D is not monitored)
  activePeoplePercentage: 100,
  questionsSent: 0,
  questionsAnswered: 0,
  responseRate: 0,
  answers: [],
};

describe('report metrics on a fixed data set', () => {
  it('monthly: periods from the earliest registration to now, newest first, six a page by default', async () => {
    const res = await data('view=monthly&page=1');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.logo).toBe('https://x.test/l.png');
    expect(res.body.pagination).toEqual({ currentPage: 1, totalPages: 1 });
    expect(res.body.data).toEqual([NOV(set.q1, set.q2), OCT(set.q1), SEP]);
    expect(res.body.questions).toEqual(
      [
        { _id: set.q1, body: 'How calm do you feel?', scale: 'normal' },
        { _id: set.q2, body: 'How stressed are you?', scale: 'reverse' },
      ].sort((a, b) => a._id.localeCompare(b._id)),
    );
  });

  it('monthly paged by limit', async () => {
    const first = await data('view=monthly&page=1&limit=2');
    expect(first.body.pagination).toEqual({ currentPage: 1, totalPages: 2 });
    expect(first.body.data.map((r: { period: string }) => r.period)).toEqual(['2026-11', '2026-10']);
    const second = await data('view=monthly&page=2&limit=2');
    expect(second.body.data).toEqual([SEP]);
  });

  it('quarterly', async () => {
    const res = await data('view=quarterly&page=1');
    expect(res.body.pagination).toEqual({ currentPage: 1, totalPages: 1 });
    expect(res.body.data).toEqual([
      {
        period: '2026-Q4',
        uniquePeopleCount: 3,
        activePeopleCount: 3,
        activePeoplePercentage: 100,
        questionsSent: 4,
        questionsAnswered: 2,
        responseRate: 50,
        answers: [
          { qid: set.q1, total: 1 },
          { qid: set.q2, total: 1 },
        ].sort((a, b) => a.qid.localeCompare(b.qid)),
      },
      { ...SEP, period: '2026-Q3' },
    ]);
  });

  it('the CSV shape: year, period, six metrics, one column per question (0 where absent)', async () => {
    const res = await h.get(`/api/report/download?view=monthly&id=${reportId}`, admin.token);
    expect(res.body.status).toBe(true);
    const { headers, rows } = res.body.data;
    expect(headers.year).toBe('Year');
    expect(headers.period).toBe('Month');
    expect(headers.metrics.map((m: { key: string }) => m.key)).toEqual([
      'uniquePeopleCount',
      'activePeopleCount',
      'activePeoplePercentage',
      'questionsSent',
      'questionsAnswered',
      'responseRate',
      ...[set.q1, set.q2].sort(),
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ year: '2026', period: 'November', [set.q1]: 0, [set.q2]: 1 });
    expect(rows[2]).toEqual({
      year: '2026',
      period: 'September',
      uniquePeopleCount: 1,
      activePeopleCount: 1,
      activePeoplePercentage: 100,
      questionsSent: 0,
      questionsAnswered: 0,
      responseRate: 0,
      [set.q1]: 0,
      [set.q2]: 0,
    });
  });

  it('a redelivered batch doubles no figure', async () => {
    const before = (await data('view=monthly&page=1')).body.data;
    const logBefore = (await h.post('/api/eventlogs/logs?page=1&limit=100', {}, admin.token)).body.total;
    await h.publish('engagement', set.redeliverable);
    expect((await data('view=monthly&page=1')).body.data).toEqual(before);
    expect((await h.post('/api/eventlogs/logs?page=1&limit=100', {}, admin.token)).body.total).toBe(
      logBefore,
    );
    const stats = await h.analytics.query<{ n: number }>(
      'SELECT count() AS n FROM events FINAL WHERE id IN {ids:Array(String)}',
      { ids: set.redeliverable.map((e) => e.id) },
    );
    expect(Number(stats[0]?.n)).toBe(3);
  });

  it("an edited report's figures use its new members only; a set no report uses any more is deleted", async () => {
    const setRows = async (ids: string[]) => {
      const [row] = await h.analytics.query<{ n: number }>(
        `SELECT (SELECT count() FROM report_members WHERE set_id = {set:String})
           + (SELECT count() FROM report_set_months WHERE set_id = {set:String})
           + (SELECT count() FROM report_set_users WHERE set_id = {set:String})
           + (SELECT count() FROM report_set_periods WHERE set_id = {set:String})
           + (SELECT count() FROM report_sets WHERE set_id = {set:String}) AS n`,
        { set: setIdOf(ids) },
      );
      return Number(row?.n);
    };
    const all = [set.A.userId, set.B.userId, set.C.userId];
    // A second report over the same users shares the first report's set.
    const added = await h.post(
      '/api/report/add',
      { name: 'Edited', logo: 'https://x.test/l.png', monitoredUsers: all },
      admin.token,
    );
    const id = added.body.report._id as string;
    const page = async () =>
      (await h.post(`/api/report/data?id=${id}&view=monthly&page=1`, {}, admin.token)).body.data;
    expect((await page())[0]).toEqual(NOV(set.q1, set.q2));

    // Now C only: the shared set stays (the first report still reads it), the figures are C's alone.
    await h.put(`/api/report/update/${id}`, { monitoredUsers: [set.C.userId] }, admin.token);
    const onlyC = await page();
    expect(onlyC.map((r: { period: string }) => r.period)).toEqual(['2026-11']);
    expect(onlyC[0]).toMatchObject({
      uniquePeopleCount: 1,
      activePeopleCount: 1,
      activePeoplePercentage: 100,
    });
    expect(await setRows(all)).toBeGreaterThan(0);
    expect(await setRows([set.C.userId])).toBeGreaterThan(0);
    expect((await data('view=monthly&page=1')).body.data[0]).toEqual(NOV(set.q1, set.q2));

    // Then B only: the set of C alone is no report's any more, and its rows are gone.
    await h.put(`/api/report/update/${id}`, { monitoredUsers: [set.B.userId] }, admin.token);
    expect(await setRows([set.C.userId])).toBe(0);
    expect((await page())[0]).toMatchObject({
      period: '2026-11',
      uniquePeopleCount: 1,
      activePeopleCount: 0,
    });
    expect(await setRows(all)).toBeGreaterThan(0);
  });
});
