// Times the report data call's SQL on chDB directly (no gateway): npx tsx bench/report-queries.ts [events users monitored]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChdbStore } from '../services/reporting/src/analytics/chdb';
import { migrate } from '../services/reporting/src/analytics/migrations';
import { createReportData } from '../services/reporting/src/app/report-data';
import { seedReportEvents, settleReportTables } from './report-seed';

const [events = 200_000, users = 2_000, monitored = 200] = process.argv.slice(2).map(Number);
const dir = await mkdtemp(join(tmpdir(), 'rq-'));
const store = await openChdbStore(dir);
await migrate(store);
let t = Date.now();
await seedReportEvents(store, users, events);
console.log(`seeded ${users} users, ${events} events in ${Date.now() - t} ms`);
t = Date.now();
await settleReportTables(store);
console.log(`report tables merged (OPTIMIZE FINAL) in ${Date.now() - t} ms`);
const ids = Array.from({ length: monitored }, (_, i) => `benchuser-${Math.floor((i * users) / monitored)}`);

// Per-statement timings: wrap query.
const timings: Record<string, number[]> = {};
const query = store.query.bind(store);
store.query = async <T>(sql: string, params?: Record<string, unknown>) => {
  const s = performance.now();
  try {
    return await query<T>(sql, params as never);
  } finally {
    const key = sql.replace(/\s+/g, ' ').slice(0, 60);
    const list = timings[key] ?? [];
    list.push(performance.now() - s);
    timings[key] = list;
  }
};
const data = createReportData({ analytics: store, clock: () => new Date('2026-11-22T00:00:00Z') });
await data.page(ids, 'monthly', 1, 6);
await settleReportTables(store, true);
for (let i = 0; i < 3; i++) await data.page(ids, 'monthly', 1, 6);
for (const k of Object.keys(timings)) delete timings[k];
const calls: number[] = [];
for (let i = 0; i < 20; i++) {
  t = performance.now();
  await data.page(ids, i % 2 ? 'quarterly' : 'monthly', 1, i % 2 ? 4 : 6);
  calls.push(performance.now() - t);
}
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `n=${s.length} p50=${s[Math.floor(s.length / 2)]?.toFixed(1)} max=${s[s.length - 1]?.toFixed(1)} ms`;
};
for (const [k, v] of Object.entries(timings)) console.log(`${stat(v)}  ${k}`);
console.log(`call: ${stat(calls)}`);
t = performance.now();
await Promise.all(Array.from({ length: 10 }, () => data.page(ids, 'monthly', 1, 6)));
console.log(`10 concurrent identical calls (single flight): ${(performance.now() - t).toFixed(0)} ms`);
await store.close();
await rm(dir, { recursive: true, force: true });
