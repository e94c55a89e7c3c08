// npx tsx bench/ops-per-command.ts [--likes 20] [--concurrency 1]
// (for a CPU profile of the like path alone: node --cpu-prof --import tsx bench/ops-per-command.ts --likes 3000 --concurrency 20)
// Counts the document-store operations one command costs in the standalone process (embedded store), including
// what follows it asynchronously: projection, relay, bus and the consumers of every service. It signs in, creates a
// post, waits for the services to settle, then toggles likes one at a time and reports the operations per like,
// by collection and operation. A debug tool for the write path, not part of the product.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmbeddedStore } from '@nudge/platform';
import Database from 'libsql';
import { BENCH_ADMIN, benchStandaloneConfig } from './scenarios/seed';
import { signIn } from './scenarios/sign-in';

const { values } = parseArgs({
  options: { likes: { type: 'string', default: '20' }, concurrency: { type: 'string', default: '1' } },
});
const LIKES = Number(values.likes);
/** Likes in flight at once, each lane on a post of its own (as the bench's connections toggle different posts). */
const CONCURRENCY = Math.max(1, Number(values.concurrency));

const counts = new Map<string, number>();
let counting = false;
const METHODS = [
  'insertOne',
  'insertMany',
  'findOne',
  'find',
  'countDocuments',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'replaceOne',
  'deleteOne',
  'deleteMany',
] as const;
// Every embedded collection shares one class: wrapping its prototype counts the operations of every service.
const proto = Object.getPrototypeOf(createEmbeddedStore().collection('probe')) as Record<string, unknown>;
for (const method of METHODS) {
  const original = proto[method] as (...args: unknown[]) => Promise<unknown>;
  proto[method] = function (this: { name: string }, ...args: unknown[]) {
    if (counting) {
      const key = `${this.name}.${method}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
}

// Time spent in SQLite per statement text (prepare, run, all), and in exec (BEGIN/COMMIT ...).
const sqlTime = new Map<string, { n: number; ms: number }>();
const timed = (key: string, t0: number) => {
  if (!counting) return;
  const entry = sqlTime.get(key) ?? { n: 0, ms: 0 };
  entry.n += 1;
  entry.ms += performance.now() - t0;
  sqlTime.set(key, entry);
};
/** The collections each database's statements named, to tell the stores apart. */
const collectionsOf = new WeakMap<object, Set<string>>();
const MARKERS: Record<string, string> = {
  bus_log: 'bus',
  like_states: 'content',
  likes: 'engagement',
  users: 'auth',
  subscriptions: 'billing',
};
{
  const dbProto = Database.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const prepare = dbProto.prepare as (sql: string) => Record<string, (...args: unknown[]) => unknown>;
  const exec = dbProto.exec as (sql: string) => unknown;
  dbProto.exec = function (this: object, sql: unknown) {
    const t0 = performance.now();
    try {
      return exec.call(this, sql as string);
    } finally {
      // Per store (a service's, the bus's), named by a collection only it has: which stores commit how often.
      const names = collectionsOf.get(this) ?? new Set<string>();
      const store = Object.entries(MARKERS).find(([marker]) => names.has(marker))?.[1] ?? 'other';
      timed(`exec ${String(sql).slice(0, 60)} (${store})`, t0);
      // Commits over 1 ms: those that ran a WAL checkpoint (copying the WAL into the database file and syncing).
      if (counting && sql === 'COMMIT' && performance.now() - t0 > 1) timed('exec COMMIT over 1 ms', t0);
    }
  };
  dbProto.prepare = function (this: object, sql: unknown) {
    const stmt = prepare.call(this, sql as string);
    const names = collectionsOf.get(this) ?? new Set<string>();
    for (const [, name] of String(sql).matchAll(/"doc:([A-Za-z0-9_]+)"/g)) names.add(name as string);
    collectionsOf.set(this, names);
    for (const m of ['run', 'all', 'get'] as const) {
      const original = stmt[m] as (...args: unknown[]) => unknown;
      stmt[m] = (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return original.apply(stmt, args);
        } finally {
          timed(
            `${m} ${String(sql)
              .replace(/json_extract\(doc, '\$\.("[^"]+")'\)/g, '$1')
              .slice(0, 110)}`,
            t0,
          );
        }
      };
    }
    return stmt;
  };
}

async function api(url: string, path: string, body: unknown, token?: string): Promise<unknown> {
  const response = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dataDir = await mkdtemp(join(tmpdir(), 'nudge-ops-'));
const { startStandalone } = await import('@nudge/standalone');
const standalone = await startStandalone(benchStandaloneConfig(dataDir));
try {
  const url = standalone.url;
  const admin = await signIn(url, BENCH_ADMIN);
  for (let attempt = 0; ; attempt++) {
    try {
      await api(url, '/api/topic/add', { topic: 'Calm' }, admin.token);
      break;
    } catch (err) {
      if (attempt > 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const topics = (await (await fetch(new URL('/api/topic/getalltopics', url))).json()) as {
    topics: { _id: string }[];
  };
  const topicId = topics.topics[0]?._id ?? '';
  const postIds: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const { template } = (await api(
      url,
      '/api/template/add',
      {
        heading: `Ops ${i}`,
        body: 'Counting.',
        subject: '',
        subjects: [{ title: 'Ops' }],
        topic: topicId,
        status: true,
        type: 0,
      },
      admin.token,
    )) as { template: { _id: string } };
    postIds.push(template._id);
  }
  const reader = await signIn(url, 'ops-reader@example.com');
  // The first like of each post may wait for engagement to learn of it from the bus.
  for (const templateid of postIds) {
    for (let attempt = 0; ; attempt++) {
      try {
        await api(url, '/api/like/add', { token: reader.token, templateid, status: true });
        break;
      } catch (err) {
        if (attempt > 100) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  await sleep(3_000);
  // The idle polls (bus consumers, relay, leases) per second, subtracted from the measured window below.
  counts.clear();
  counting = true;
  const IDLE_MS = 5_000;
  await sleep(IDLE_MS);
  const idle = new Map(counts);
  counts.clear();
  const started = Date.now();
  const cpuAtStart = process.cpuUsage();
  const latencies: number[] = [];
  await Promise.all(
    postIds.map(async (templateid, lane) => {
      // Each lane toggles its post: off, on, off ... (the setup liked it), so every like appends.
      for (let i = lane, k = 0; i < LIKES; i += CONCURRENCY, k++) {
        const t0 = performance.now();
        await api(url, '/api/like/add', { token: reader.token, templateid, status: k % 2 === 1 });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const likesPerSecond = (LIKES * 1000) / (Date.now() - started);
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(0);
  await sleep(3_000);
  counting = false;
  // The whole process: the standalone services and this client's fetches (the same for every run of the tool).
  const cpu = process.cpuUsage(cpuAtStart);
  const elapsed = Date.now() - started;
  for (const [key, n] of idle) counts.set(key, (counts.get(key) ?? 0) - (n * elapsed) / IDLE_MS);
  const rows = [...counts].filter(([, c]) => Math.abs(c / LIKES) >= 0.05).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((n, [, c]) => n + c, 0);
  process.stdout.write(
    `store operations per like/add (${LIKES} likes, ${CONCURRENCY} at a time, ${likesPerSecond.toFixed(0)} likes/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; ` +
      'everything until the system settles, idle polling subtracted)\n',
  );
  for (const [key, count] of rows)
    process.stdout.write(`${(count / LIKES).toFixed(2).padStart(7)}  ${key}\n`);
  process.stdout.write(`${(total / LIKES).toFixed(2).padStart(7)}  total\n`);
  process.stdout.write(
    `\nprocess CPU per like (services and this client, until settled): ${((cpu.user + cpu.system) / LIKES).toFixed(0)} us\n`,
  );
  const sqlRows = [...sqlTime].sort((a, b) => b[1].ms - a[1].ms);
  const sqlTotal = sqlRows.reduce((n, [key, v]) => (key.includes(' over ') ? n : n + v.ms), 0);
  process.stdout.write(
    `\nSQLite time per like: ${((sqlTotal * 1000) / LIKES).toFixed(0)} us (statements by time, us per like, calls per like)\n`,
  );
  for (const [key, v] of sqlRows.slice(0, 25))
    process.stdout.write(
      `${((v.ms * 1000) / LIKES).toFixed(0).padStart(6)} us ${(v.n / LIKES).toFixed(2).padStart(6)}  ${key}\n`,
    );
} finally {
  await standalone.close();
  await rm(dataDir, { recursive: true, force: true });
}
