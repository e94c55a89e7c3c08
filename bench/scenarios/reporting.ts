import { seedReportEvents, settleReportTables } from '../report-seed';
import { BENCH_ADMIN } from './seed';
import { type SignedIn, signIn } from './sign-in';
import type { BenchContext, Scenario } from './types';

// Reporting: web-event intake through the gateway (one event, and batches of 50 with a zero-loss check), and the
// report viewer's data call on a ClickHouse store seeded with ClickHouse's own generators (INSERT ... SELECT FROM
// numbers()), never through the API. Sizes: BENCH_REPORT_EVENTS (10,000,000), BENCH_REPORT_USERS (100,000),
// BENCH_REPORT_MONITORED (10,000 users in the measured report, a tenth of the users).

const BATCH = 50;
const num = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

async function call<T>(url: string, method: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(new URL(path, url), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: method === 'GET' ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

let people: Promise<{ admin: SignedIn; reader: SignedIn }> | undefined;
const signedIn = (url: string) => {
  people ??= (async () => ({
    admin: await signIn(url, BENCH_ADMIN),
    reader: await signIn(url, 'bench-reporting-reader@example.com'),
  }))();
  return people;
};

const logTotal = async (url: string, token: string) =>
  (await call<{ total: number }>(url, 'POST', '/api/eventlogs/logs?page=1&limit=1', {}, token)).total;

/** One page_visit per request from a signed-in reader (compare with the bare-express ceiling). */
export const webEventSingle: Scenario = {
  name: 'POST /api/eventlogs (1 event)',
  async setup({ url }) {
    const { reader } = await signedIn(url);
    return {
      method: 'POST',
      path: '/api/eventlogs',
      body: { token: reader.token, eventType: 'page_visit', eventValue: '/', metadata: { path: '/' } },
    };
  },
};

/** Batches of 50 (what the web app sends on page hide); afterwards every accepted event must be in ClickHouse. */
export const webEventBatches: Scenario = {
  name: `POST /api/eventlogs (batches of ${BATCH})`,
  async setup({ url }) {
    const { admin, reader } = await signedIn(url);
    const before = await logTotal(url, admin.token);
    return {
      method: 'POST',
      path: '/api/eventlogs',
      itemsPerRequest: BATCH,
      body: {
        token: reader.token,
        events: Array.from({ length: BATCH }, (_, i) => ({ eventType: 'page_visit', eventValue: `/p/${i}` })),
      },
      async verify(answered) {
        const expected = before + answered * BATCH;
        const deadline = Date.now() + 60_000;
        let total = await logTotal(url, admin.token);
        while (total < expected && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 250));
          total = await logTotal(url, admin.token);
        }
        // The single-event scenario before this one may still be landing: at least every batch event must be in.
        if (total < expected)
          throw new Error(`lost events: ${expected - total} of ${answered * BATCH} accepted`);
      },
    };
  },
};

/** Seeds users and events with numbers(); registrations spread over two years, activity over 23 months. */
async function seedReportStore(ctx: BenchContext, users: number, events: number) {
  if (!ctx.analytics) throw new Error('the standalone process did not expose reporting’s analytics store');
  const started = Date.now();
  await seedReportEvents(ctx.analytics, users, events);
  process.stdout.write(
    `  seeded ${users} users and ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  // The parts the seed wrote are merged at once (OPTIMIZE ... FINAL): the measurement reads settled data.
  const settling = Date.now();
  await settleReportTables(ctx.analytics);
  process.stdout.write(
    `  report tables merged (OPTIMIZE FINAL) in ${((Date.now() - settling) / 1000).toFixed(1)} s\n`,
  );
}

let seededReport: Promise<{ id: string; token: string }> | undefined;
/** Seeds the store once and adds the measured report (both report scenarios read it). */
const benchReport = (ctx: BenchContext) => {
  seededReport ??= (async () => {
    const users = num('BENCH_REPORT_USERS', 100_000);
    const events = num('BENCH_REPORT_EVENTS', 10_000_000);
    const monitored = Math.min(users, num('BENCH_REPORT_MONITORED', 10_000));
    const { admin } = await signedIn(ctx.url);
    await seedReportStore(ctx, users, events);
    const ids = Array.from(
      { length: monitored },
      (_, i) => `benchuser-${Math.floor((i * users) / monitored)}`,
    );
    const { report } = await call<{ report: { _id: string } }>(
      ctx.url,
      'POST',
      '/api/report/add',
      { name: 'Bench', logo: 'https://example.com/logo.png', monitoredUsers: ids, accessUsers: [] },
      admin.token,
    );
    // The first view of a report fills its set (report_set_months, one scan of report_user_months): once per list.
    const first = Date.now();
    await call(ctx.url, 'POST', `/api/report/data?view=monthly&id=${report._id}&page=1`, {}, admin.token);
    process.stdout.write(`  first view of the report (fills its set) in ${Date.now() - first} ms\n`);
    // The set's rows, merged as well.
    if (ctx.analytics) await settleReportTables(ctx.analytics, true);
    return { id: report._id, token: admin.token };
  })();
  return seededReport;
};

/** The report viewer's data call (page 1) for a report over BENCH_REPORT_MONITORED users. */
const reportDataScenario = (view: 'monthly' | 'quarterly'): Scenario => ({
  name: view === 'monthly' ? 'POST /api/report/data' : 'POST /api/report/data (quarterly)',
  async setup(ctx) {
    const { id, token } = await benchReport(ctx);
    return { method: 'POST', path: `/api/report/data?view=${view}&id=${id}&page=1`, body: { token } };
  },
});

export const reportData = reportDataScenario('monthly');
export const reportDataQuarterly = reportDataScenario('quarterly');
