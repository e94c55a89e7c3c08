// npm run bench [-- --duration 10 --connections 20 --warmup 2 --scenario isauth --reminders 100000]
// Also reports the built web app's bundle sizes (web/dist), against the first-load budget.
//
// Measures, in one run on this machine:
//   1. the ceiling: a bare express 5 app answering POST /bare with a small JSON body, on 127.0.0.1;
//   2. every scenario of bench/scenarios through the gateway of the standalone process, which runs in its own child
//      process (bench/standalone-host.ts, as `npm start` runs it), so its memory and CPU time are its own; the load
//      generator (autocannon's worker) and the ceiling's app run in this process.
// Prints a table and writes the same to bench/results/latest.json. Responses that are not 2xx, connection
// errors and timeouts are counted; a measurement with any of them is flagged and the run exits with 1.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import express from 'express';
import { bundleTable, kb, measureBundle } from './bundle';
import { type CpuProfile, profilePath, startCpuProfile } from './cpu-profile';
import { type FirstLoad, measureFirstLoad } from './first-load';
import { type ProcessMemory, processTable, processTree, totalRssMb } from './processes';
import { measureReminders, REMINDER_TARGET, type ReminderMeasurement } from './reminders';
import { type BenchRequest, scenarios } from './scenarios';
import { benchStandaloneConfig } from './scenarios/seed';
import { type StandaloneChild, startStandaloneChild } from './standalone-child';
import type { MemoryBreakdown } from './standalone-protocol';

interface Settings {
  duration: number;
  connections: number;
  warmup: number;
  only: string[];
  /** Due readers of the reminder scenario (0 = not run). */
  reminders: number;
  /** Folder for one CPU profile per scenario, of its measured run only (seeding and warm-up left out). */
  cpuProfDir?: string;
}

interface Measurement {
  scenario: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** req/s as a percentage of the ceiling's req/s. */
  percentOfCeiling: number | null;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Set when the measurement has non-2xx responses, errors or timeouts, or could not run at all. */
  flagged: boolean;
  /** Why the scenario could not be measured (setup or start-up failed). */
  failure?: string;
  /** 2xx answers, warm-up included (what a scenario's verify checks against). */
  answered2xx: number;
  /** Events (or other items) per second, for scenarios that send several per request. */
  itemsPerSec?: number;
  /** What a scenario's verify found missing. */
  lost?: string;
  /**
   * Resident memory right after the measurement, in MB: the standalone process and every process below it (the
   * analytics engine's, tsx's esbuild helper), summed.
   */
  rssMb?: number;
  /** The standalone process alone (the tree's root), in MB. */
  standaloneRssMb?: number;
  /**
   * CPU time of the measured process's main thread (the standalone's: gateway and services; for the ceiling this
   * process's, not the load generator's worker) per request of the measurement, in microseconds: the cost of a
   * request, much less disturbed than req/s by other work on a shared machine.
   */
  cpuUsPerRequest?: number;
  /** The standalone process tree, each process on its own. */
  processes?: ProcessMemory[];
  /** The standalone data directory's size on disk right after the measurement, in MB. */
  dataMb?: number;
}

const CEILING = 'ceiling (bare express)';
/** Budget: the reader's first load ships at most 200 KB of gzipped JavaScript. */
const FIRST_LOAD_BUDGET = 200 * 1024;
/** Budget: the reader's first load, everything over the wire as Chromium counts it, at most 150 KB. */
const WIRE_BUDGET = 150 * 1024;
const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDist = join(repoRoot, 'web/dist');

function readSettings(): Settings {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '20' },
      warmup: { type: 'string', default: '2' },
      scenario: { type: 'string', multiple: true, default: [] },
      reminders: { type: 'string', default: '100000' },
      'cpu-prof': { type: 'string' },
    },
    allowPositionals: false,
  });
  const number = (name: string, raw: string, min: number): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min)
      throw new Error(`--${name} must be a number >= ${min} (got '${raw}')`);
    return n;
  };
  return {
    duration: number('duration', values.duration, 1),
    connections: Math.floor(number('connections', values.connections, 1)),
    warmup: number('warmup', values.warmup, 0),
    only: values.scenario,
    reminders: Number(values.reminders),
    ...(values['cpu-prof'] ? { cpuProfDir: values['cpu-prof'] } : {}),
  };
}

/** How many distinct bodies a scenario with `bodies` gets (its sequence repeats after that many requests). */
const BODY_COUNT = 40_000;
const bodyFeeder = join(dirname(fileURLToPath(import.meta.url)), 'body-feeder.cjs');

/**
 * Writes bodies(from) .. bodies(from + BODY_COUNT - 1) as JSON texts for body-feeder.cjs, which autocannon's worker
 * loads by path (a function cannot be cloned into the worker, so like/add's bodies cannot be made there).
 */
async function writeBodies(dir: string, bodies: (i: number) => unknown, from: number): Promise<string> {
  const file = join(dir, `bodies-${from}.json`);
  const texts = Array.from({ length: BODY_COUNT }, (_, i) => JSON.stringify(bodies(from + i)));
  await writeFile(file, JSON.stringify(texts));
  return file;
}

/** The process that answers a measurement: its pid (for its CPU time) and, when profiled, how to profile it. */
interface Target {
  pid: number;
  startCpuProfile(): Promise<CpuProfile>;
}

/** This process (the ceiling's app runs here). */
const thisProcess: Target = { pid: process.pid, startCpuProfile };

/** One autocannon measurement of one request, after a short warm-up whose numbers are discarded. */
async function measure(
  name: string,
  baseUrl: string,
  request: BenchRequest,
  settings: Settings,
  target: Target,
): Promise<Measurement> {
  const rawBody = !request.bodies && (typeof request.body === 'string' || request.body === undefined);
  const body = rawBody ? (request.body as string | undefined) : JSON.stringify(request.body);
  const { bodies } = request;
  const scratch = bodies ? await mkdtemp(join(tmpdir(), 'nudge-bench-bodies-')) : null;
  const run = async (duration: number, from: number): Promise<autocannon.Result> => {
    if (bodies && scratch) process.env.NUDGE_BENCH_BODIES = await writeBodies(scratch, bodies, from);
    return autocannon({
      url: new URL(request.path, baseUrl).toString(),
      method: request.method,
      headers: { ...(rawBody ? {} : { 'content-type': 'application/json' }), ...request.headers },
      ...(bodies ? { requests: [{ setupRequest: bodyFeeder }] } : body === undefined ? {} : { body }),
      connections: settings.connections,
      duration,
      // The load generator runs on its own thread, so it does not share the event loop it is measuring.
      workers: 1,
    });
  };
  try {
    // The measured run continues the warm-up's sequence of bodies, so a toggle is not sent twice.
    const warm = settings.warmup > 0 ? await run(settings.warmup, 0) : null;
    const profile = settings.cpuProfDir ? await target.startCpuProfile() : null;
    const cpuBefore = await mainThreadCpuMs(target.pid);
    const result = await run(settings.duration, warm ? warm.requests.total + settings.connections : 0);
    const cpuAfter = await mainThreadCpuMs(target.pid);
    if (profile && settings.cpuProfDir) {
      const file = profilePath(settings.cpuProfDir, name);
      await profile.stop(file);
      process.stdout.write(`cpu profile: ${file}\n`);
    }
    const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
    return {
      scenario: name,
      reqPerSec: round(result.requests.average, 1),
      p50Ms: round(result.latency.p50),
      p99Ms: round(result.latency.p99),
      percentOfCeiling: null,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      flagged: result.non2xx + result.errors + result.timeouts > 0 || result.requests.total === 0,
      answered2xx: result['2xx'] + (warm ? warm['2xx'] : 0),
      ...(cpuBefore !== null && cpuAfter !== null && result.requests.total > 0
        ? { cpuUsPerRequest: Math.round(((cpuAfter - cpuBefore) * 1000) / result.requests.total) }
        : {}),
    };
  } finally {
    delete process.env.NUDGE_BENCH_BODIES;
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/** CPU time (user + system) of a process's main thread so far, in ms; null where /proc is not there. */
async function mainThreadCpuMs(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // Fields after the command (which may hold spaces) in parentheses; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : null; // USER_HZ is 100 on Linux
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Bytes of the files under dir; folders that vanish while it is read (ClickHouse's merges) count as empty. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await sizeOf(path);
    else if (entry.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/** The data directory by kind of file, in MB: each store's database and WAL, the analytics engine's folder, the rest. */
type DataBreakdown = Record<string, number>;

async function dataBreakdown(dataDir: string): Promise<DataBreakdown> {
  const sizes: DataBreakdown = {};
  const add = (key: string, bytes: number) => {
    sizes[key] = (sizes[key] ?? 0) + bytes;
  };
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === 'clickhouse') add(`${name}/`, await sizeOf(path));
        else await walk(path, name);
      } else if (entry.isFile()) {
        const key = /\.sqlite(-wal|-shm)?$/.test(name) ? name : `${rel || '.'}/(other files)`;
        add(key, (await stat(path).catch(() => ({ size: 0 }))).size);
      }
    }
  };
  await walk(dataDir, '');
  return Object.fromEntries(
    Object.entries(sizes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, mb(v)]),
  );
}

let dataSizes: { running: DataBreakdown; afterClose: number } | null = null;

/** Work the services still have queued: commits not yet relayed to the bus, messages not yet consumed. */
const BACKLOG = /^(nudge_relay_pending_commits|nudge_consumer_lag_messages)\{[^}]*\}\s+(\d+(?:\.\d+)?)/gm;

/**
 * Waits (at most 2 minutes) until the services have relayed and consumed what a scenario's setup made (the seed's
 * 11,000 events), so a measurement does not pay for that catch-up on the same thread.
 */
async function settle(metricsUrl: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const text = await fetch(metricsUrl)
      .then((r) => r.text())
      .catch(() => '');
    const backlog = [...text.matchAll(BACKLOG)].reduce((n, m) => n + Number(m[2]), 0);
    if (!text || backlog === 0) break;
    if (Date.now() - started > 120_000) {
      process.stdout.write(`  still ${backlog} commits or messages queued after 2 min; measuring anyway\n`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const waited = (Date.now() - started) / 1000;
  if (waited >= 1)
    process.stdout.write(`  waited ${waited.toFixed(0)} s for the services to relay and consume\n`);
}

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const failed = (scenario: string, err: unknown): Measurement => ({
  scenario,
  reqPerSec: 0,
  p50Ms: 0,
  p99Ms: 0,
  percentOfCeiling: null,
  requests: 0,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  flagged: true,
  failure: describe(err),
  answered2xx: 0,
});

async function listenLocal(app: express.Express): Promise<{ url: string; server: Server }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (err?: Error) => {
      if (err) return reject(err);
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, server });
    });
  });
}

/** The most this machine serves over HTTP with express 5: JSON in, JSON out, nothing else. */
async function measureCeiling(settings: Settings): Promise<Measurement> {
  const app = express();
  app.use(express.json());
  app.post('/bare', (req, res) => {
    res.json({ status: true, echo: typeof req.body?.token === 'string' ? req.body.token.length : 0 });
  });
  const { url, server } = await listenLocal(app);
  try {
    return await measure(
      CEILING,
      url,
      { method: 'POST', path: '/bare', body: { token: 'x'.repeat(200) } },
      settings,
      thisProcess,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

let memory: MemoryBreakdown | null = null;

function memoryTable(m: MemoryBreakdown): string {
  const keys = Object.keys(m.afterGc);
  const usage = `| memory (MB) | ${keys.join(' | ')} |\n|---|${keys.map(() => '---:').join('|')}|\n| after every scenario | ${keys.map((k) => m.before[k] ?? '-').join(' | ')} |\n| after a full GC | ${keys.map((k) => m.afterGc[k]).join(' | ')} |`;
  const rows = m.collections.map((c) => `| ${c.collection} | ${c.docs} | ${c.jsonMb} |`);
  return `${usage}\n\n| collection (embedded store) | documents | JSON MB |\n|---|---:|---:|\n${rows.join('\n')}\n| **all ${m.totalDocs > 0 ? 'collections' : ''}** | **${m.totalDocs}** | **${m.totalJsonMb}** |`;
}

let firstLoad: FirstLoad | null = null;
/**
 * The standalone process tree once nothing has called the embedded analytics engine for its idle time
 * (ANALYTICS_IDLE_STOP_SECONDS): what a quiet deployment holds between uses; null when the engine did not stop.
 */
let atRest: { tree: ProcessMemory[]; waitedSeconds: number } | null = null;
let firstLoadFailure: string | undefined;

function selectScenarios(settings: Settings) {
  const unknown = settings.only.filter((name) => !scenarios.some((s) => s.name === name));
  if (unknown.length)
    throw new Error(
      `unknown scenario(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`,
    );
  return settings.only.length ? scenarios.filter((s) => settings.only.includes(s.name)) : scenarios;
}

/** Scenarios that need the seeded data set (10,000 users, 1,000 posts). */
const SEEDING = new Set(['getallpost page 1', 'template/{id}', 'like/add', 'comment/add']);

/** What this run will do and roughly how long it takes, printed before it starts. */
function plan(settings: Settings, selected: typeof scenarios): string {
  const each = settings.warmup + settings.duration;
  const seeds = selected.some((s) => SEEDING.has(s.name));
  const minutes = (seconds: number) =>
    seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
  const measuring = (selected.length + 1) * each;
  const lines = [
    `bench: ${settings.connections} connections, ${settings.duration} s per measurement after a ${settings.warmup} s warm-up`,
    `will run: the ceiling, then ${selected.length} scenario(s) (${selected.map((s) => s.name).join(', ')}): about ${minutes(measuring)} of measuring`,
    seeds
      ? '  + seeding 10,000 users and 1,000 posts through the API: about 1 min on a quiet 2-core machine, several on a busy one'
      : '',
    "  + the reader's first load in Chromium: a few seconds",
    settings.reminders > 0
      ? `  + reminders: ${settings.reminders.toLocaleString('en')} readers due in one slot (seeding them takes minutes; the slot itself is timed, target ${REMINDER_TARGET.seconds} s). Pass --reminders 0 to leave it out.`
      : '  (reminders: not run, --reminders 0)',
  ];
  return `${lines.filter(Boolean).join('\n')}\n`;
}

/**
 * The first-load figures are only worth something against the web app as the code stands: without web/dist the
 * gateway answers with nothing to load, and a web/dist left from older code measures that code. So it is built every
 * time (a few seconds); a build that fails fails the bench.
 */
function ensureWebBuilt(): void {
  process.stdout.write('building the web app (npm run build:web) ...\n');
  const built = spawnSync('npm', ['run', 'build:web'], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0 || !existsSync(join(webDist, 'index.html')))
    throw new Error(
      `the web app could not be built (npm run build:web exited with ${built.status}), so its first load cannot be measured`,
    );
}

async function measureScenarios(settings: Settings): Promise<Measurement[]> {
  const selected = selectScenarios(settings);

  const dataDir = await mkdtemp(join(tmpdir(), 'nudge-bench-'));
  const results: Measurement[] = [];
  try {
    let standalone: StandaloneChild;
    let running: DataBreakdown = {};
    try {
      standalone = await startStandaloneChild({ ...benchStandaloneConfig(dataDir), WEB_DIST: webDist });
    } catch (err) {
      return selected.map((s) => failed(s.name, new Error(`standalone did not start: ${describe(err)}`)));
    }
    try {
      for (const scenario of selected) {
        process.stdout.write(`measuring ${scenario.name} ...\n`);
        let row: Measurement;
        try {
          const request = await scenario.setup({
            url: standalone.url,
            ...(standalone.analytics ? { analytics: standalone.analytics } : {}),
          });
          await settle(standalone.metricsUrl);
          row = await measure(scenario.name, standalone.url, request, settings, standalone);
          if (request.itemsPerRequest) row.itemsPerSec = row.reqPerSec * request.itemsPerRequest;
          if (request.verify) {
            try {
              await request.verify(row.answered2xx);
            } catch (err) {
              row.flagged = true;
              row.lost = describe(err);
            }
          }
        } catch (err) {
          row = failed(scenario.name, err);
          process.stdout.write(`SCENARIO FAILED: ${scenario.name}: ${row.failure}\n`);
        }
        row.processes = await processTree(standalone.pid);
        if (row.processes.length) {
          row.rssMb = totalRssMb(row.processes);
          row.standaloneRssMb = row.processes[0]?.rssMb;
        }
        row.dataMb = mb(await sizeOf(dataDir));
        results.push(row);
      }
      running = await dataBreakdown(dataDir);
      memory = await standalone.memory().catch((err: unknown) => {
        process.stdout.write(`memory breakdown failed: ${describe(err)}\n`);
        return null;
      });
      process.stdout.write("measuring the reader's first load in Chromium ...\n");
      try {
        firstLoad = await measureFirstLoad(standalone.url);
      } catch (err) {
        firstLoadFailure = describe(err);
      }
      atRest = await treeAtRest(standalone.pid);
    } finally {
      await standalone.close();
    }
    // Closed as `npm start` closes on SIGTERM: the WALs are checkpointed into their databases and removed.
    dataSizes = { running, afterClose: mb(await sizeOf(dataDir)) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return results;
}

/**
 * Waits (up to the analytics idle time plus 30 s) until the standalone process is alone in its tree: the chDB engine
 * stopped for being idle. Returns that tree, or null when it did not stop.
 */
async function treeAtRest(pid: number): Promise<{ tree: ProcessMemory[]; waitedSeconds: number } | null> {
  const idleSeconds = Number(process.env.ANALYTICS_IDLE_STOP_SECONDS ?? 60);
  if (!(idleSeconds > 0)) return null;
  process.stdout.write(`waiting up to ${idleSeconds + 30} s for the idle analytics engine to stop ...\n`);
  const started = performance.now();
  while (performance.now() - started < (idleSeconds + 30) * 1000) {
    const tree = await processTree(pid);
    if (tree.length === 1) return { tree, waitedSeconds: Math.round((performance.now() - started) / 1000) };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return null;
}

function table(rows: Measurement[]): string {
  const header = [
    'scenario',
    'req/s',
    'items/s',
    'p50 ms',
    'p99 ms',
    '% of ceiling',
    'CPU µs/req',
    'standalone tree RSS MB',
    'of which main process MB',
    'data MB',
    'problems',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.failure ? '-' : r.reqPerSec.toFixed(1),
    r.itemsPerSec === undefined ? '-' : r.itemsPerSec.toFixed(0),
    r.failure ? '-' : r.p50Ms.toFixed(2),
    r.failure ? '-' : r.p99Ms.toFixed(2),
    r.percentOfCeiling === null ? '-' : `${r.percentOfCeiling.toFixed(1)}%`,
    r.cpuUsPerRequest === undefined ? '-' : String(r.cpuUsPerRequest),
    r.rssMb === undefined ? '-' : r.rssMb.toFixed(1),
    r.standaloneRssMb === undefined ? '-' : r.standaloneRssMb.toFixed(1),
    r.dataMb === undefined ? '-' : r.dataMb.toFixed(1),
    problems(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 || i === widths.length - 1 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [format(header), rule, ...lines.map(format)].join('\n');
}

function problems(r: Measurement): string {
  if (r.failure) return `FAILED: ${r.failure}`;
  if (r.lost) return `FLAGGED: ${r.lost}`;
  if (!r.flagged) return 'none';
  const parts = [
    r.non2xx ? `${r.non2xx} non-2xx` : '',
    r.errors ? `${r.errors} errors` : '',
    r.timeouts ? `${r.timeouts} timeouts` : '',
  ].filter(Boolean);
  return `FLAGGED: ${parts.join(', ')} of ${r.requests}`;
}

async function main(): Promise<void> {
  const settings = readSettings();
  process.stdout.write(plan(settings, selectScenarios(settings)));
  ensureWebBuilt();
  process.stdout.write('measuring the ceiling ...\n');
  let ceiling: Measurement;
  try {
    ceiling = await measureCeiling(settings);
  } catch (err) {
    ceiling = failed(CEILING, err);
  }
  const measured = await measureScenarios(settings);
  const rows = [ceiling, ...measured];
  const ceilingRate = ceiling.failure || ceiling.reqPerSec <= 0 ? null : ceiling.reqPerSec;
  for (const row of rows) {
    if (!row.failure && ceilingRate !== null)
      row.percentOfCeiling = Math.round((row.reqPerSec / ceilingRate) * 1000) / 10;
  }

  process.stdout.write(
    `\n${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}\n`,
  );
  process.stdout.write(`\n${table(rows)}\n`);
  const lastTree = measured.findLast((r) => r.processes?.length)?.processes;
  if (lastTree)
    process.stdout.write(
      `\n${processTable(lastTree, 'standalone process tree (after the last scenario)')}\n(the standalone process is the first row, in its own process as \`npm start\` runs it; RSS counts shared pages in each process. The bench process, with the load generator and the ceiling's app, is not in it: ${mb(process.memoryUsage.rss())} MB)\n`,
    );
  process.stdout.write(
    atRest
      ? `\n${processTable(atRest.tree, `standalone process tree at rest (${atRest.waitedSeconds} s after the first load: the analytics engine stopped, idle)`)}\n`
      : '\n(the analytics engine did not stop while the bench waited: no figure at rest)\n',
  );
  if (memory) process.stdout.write(`\n${memoryTable(memory)}\n`);
  if (dataSizes) {
    const rows = Object.entries(dataSizes.running).map(([file, size]) => `| ${file} | ${size} |`);
    process.stdout.write(
      `\n| data directory (after the last scenario, running) | MB |\n|---|---:|\n${rows.join('\n')}\n| **total after the standalone process stopped** | **${dataSizes.afterClose}** |\n`,
    );
  }
  const flagged = rows.filter((r) => r.flagged);
  if (flagged.length) {
    process.stdout.write(
      `\nBENCH FAILED: ${flagged.length} measurement(s) flagged (${flagged.map((r) => r.scenario).join(', ')}): their numbers include failed requests or are missing.\n`,
    );
    process.exitCode = 1;
  }

  if (firstLoadFailure) {
    process.stdout.write(`\nBENCH FAILED: the first load could not be measured: ${firstLoadFailure}\n`);
    process.exitCode = 1;
  } else if (firstLoad) {
    const lines = firstLoad.requests.map(
      (r) => `| ${new URL(r.url).pathname} | ${r.encoding} | ${kb(r.wireBytes)} |`,
    );
    process.stdout.write(
      `\n| first load in Chromium | encoding | over the wire |\n|---|---|---:|\n${lines.join('\n')}\n| **total** | | **${kb(firstLoad.wireBytes)}** (budget ${kb(WIRE_BUDGET)}) |\n`,
    );
    if (firstLoad.wireBytes > WIRE_BUDGET) {
      process.stdout.write("\nThe reader's first load over the wire is over its budget.\n");
      process.exitCode = 1;
    }
  }

  const bundle = await measureBundle(webDist);
  if (bundle) {
    process.stdout.write(`\n${bundleTable(bundle, FIRST_LOAD_BUDGET)}\n`);
    if (bundle.firstLoad.gzipBytes > FIRST_LOAD_BUDGET) {
      process.stdout.write("\nThe reader's first load is over its budget.\n");
      process.exitCode = 1;
    }
  } else {
    // ensureWebBuilt() built it before the run: it is gone now, so the first load above measured nothing real.
    process.stdout.write(
      '\nBENCH FAILED: web/dist is missing, so the first load and the bundle were not measured against the web app\n',
    );
    process.exitCode = 1;
  }

  let reminders: ReminderMeasurement | { failure: string } | null = null;
  if (settings.reminders > 0) {
    process.stdout.write(`\nreminders: ${settings.reminders} readers due in one slot ...\n`);
    try {
      const m = await measureReminders(settings.reminders);
      reminders = m;
      process.stdout.write(
        `reminders: ${m.sent}/${m.readers} sent in ${m.seconds} s, standalone process peak RSS ` +
          `${m.process.peakRssMb} MB, process tree with chDB ${m.peakRssMb} MB ` +
          `(target at 100,000: ${REMINDER_TARGET.seconds} s, ${REMINDER_TARGET.rssMb} MB for the standalone process)\n`,
      );
      if (m.sent !== m.readers || (m.readers >= 100_000 && !m.withinTarget)) process.exitCode = 1;
    } catch (err) {
      reminders = { failure: err instanceof Error ? err.message : String(err) };
      process.stdout.write(`reminders: failed: ${reminders.failure}\n`);
      process.exitCode = 1;
    }
  }

  await mkdir(resultsDir, { recursive: true });
  const report = {
    generatedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    settings: {
      connections: settings.connections,
      durationSeconds: settings.duration,
      warmupSeconds: settings.warmup,
    },
    results: rows,
    memory,
    dataSizes,
    firstLoad,
    bundle,
    reminders,
  };
  const file = join(resultsDir, 'latest.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nwritten to ${file}\n`);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  // Leftover handles (sockets in TIME_WAIT keep-alive, store timers) must not keep a finished run alive.
  .finally(() => process.exit());
