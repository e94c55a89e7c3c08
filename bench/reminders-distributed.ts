// The distributed reminder scenario: N readers due in one slot, sent by a `workflows` worker process (the container
// entry's worker) on a real Temporal dev server, through services whose bus is a real Kafka broker, into the capture
// transport. The services it calls (auth, content, engagement, reporting) run in one standalone process with
// EVENT_BUS=kafka, in this process; Temporal, Kafka and the worker are processes of their own.
//   npm run bench:reminders:distributed -- --readers 100000
// Target: 100,000 readers in <= 60 s; each process's peak resident memory is reported.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startStandalone } from '../deploy/standalone/src/index';
import { buildWorkflows } from '../scripts/build-workflows';
import { startKafka } from '../scripts/engines/kafka';
import { startTemporal } from '../scripts/engines/temporal';
import { scheduleIds } from '../workflows/src/worker';
import { processTree } from './processes';
import { rssMbOf, seedDueReaders, standaloneEnv } from './reminders';

export const DISTRIBUTED_TARGET = { seconds: 60 };
const workerEntry = fileURLToPath(new URL('../workflows/test/fixtures/worker-process.ts', import.meta.url));

export interface DistributedReminderMeasurement {
  readers: number;
  sent: number;
  failed: number;
  seconds: number;
  /** Peak resident memory (MB) of each process during the slot, sampled every 250 ms. */
  peakRssMb: Record<string, number>;
  withinTarget: boolean;
}

/** Which of the scenario's processes a command line is. */
function roleOf(command: string, workerPid: number, pid: number): string | null {
  if (pid === process.pid) return 'services (standalone, EVENT_BUS=kafka)';
  if (pid === workerPid) return 'workflows worker';
  if (/\btemporal\b.*server start-dev/.test(command)) return 'temporal dev server';
  if (/^\S*java\b/.test(command)) return 'kafka broker';
  return null;
}

/** Samples each named process's RSS every `everyMs` and keeps each one's peak. */
function sampler(named: Map<number, string>, everyMs: number) {
  const peaks: Record<string, number> = {};
  const sample = async () => {
    for (const [pid, name] of named) peaks[name] = Math.max(peaks[name] ?? 0, await rssMbOf(pid));
  };
  const timer = setInterval(() => void sample(), everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
      return Object.fromEntries(Object.entries(peaks).map(([k, v]) => [k, Math.round(v)]));
    },
  };
}

export async function measureDistributedReminders(readers: number): Promise<DistributedReminderMeasurement> {
  const root = await mkdtemp(join(tmpdir(), 'nudge-bench-distributed-'));
  const stops: Array<() => Promise<void>> = [];
  let worker: ChildProcess | undefined;
  try {
    const [kafka, temporal, bundle] = await Promise.all([
      startKafka(),
      startTemporal(),
      buildWorkflows(join(root, 'workflows-bundle.js')),
    ]);
    stops.push(
      () => kafka.stop(),
      () => temporal.stop(),
    );
    const internal = randomBytes(24).toString('hex');
    const publicUrl = 'http://nudge.bench';
    const app = await startStandalone({
      ...standaloneEnv(join(root, 'standalone')),
      EVENT_BUS: 'kafka',
      KAFKA_BROKERS: kafka.brokers.join(','),
      INTERNAL_SERVICE_TOKEN: internal,
      PUBLIC_URL: publicUrl,
    });
    stops.unshift(() => app.close());
    process.stdout.write(`seeding ${readers} readers due at 08:00 UTC ...\n`);
    await seedDueReaders(app, readers);

    const queue = `bench-${randomBytes(4).toString('hex')}`;
    worker = spawn(process.execPath, ['--import', 'tsx', workerEntry, bundle, '0'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATA_DIR: join(root, 'worker'),
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_TASK_QUEUE: queue,
        AUTH_URL: app.serviceUrls.auth,
        CONTENT_URL: app.serviceUrls.content,
        ENGAGEMENT_URL: app.serviceUrls.engagement,
        BILLING_URL: app.serviceUrls.billing,
        REPORTING_URL: app.serviceUrls.reporting,
        INTERNAL_SERVICE_TOKEN: internal,
        PUBLIC_URL: publicUrl,
        MAIL_TRANSPORT: 'capture',
        WHATSAPP_TRANSPORT: 'capture',
        SERVICE_PORT: '0',
        METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const proc = worker;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('WORKER READY')) resolve();
      });
      proc.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready`)));
    });

    const named = new Map<number, string>();
    for (const p of await processTree()) {
      const role = roleOf(p.command, proc.pid ?? -1, p.pid);
      if (role) named.set(p.pid, role);
    }
    const { Client, Connection } = await import('@temporalio/client');
    const connection = await Connection.connect({ address: temporal.address });
    stops.unshift(() => connection.close());
    const client = new Client({ connection });
    // Tomorrow's 08:00 UTC: a slot of its own, named as the Schedule names it.
    const slot = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000 + 8 * 3600_000);
    const memory = sampler(named, 250);
    const started = performance.now();
    const report = (await client.workflow.execute('reminderSlotWorkflow', {
      taskQueue: queue,
      workflowId: `${scheduleIds({ TEMPORAL_TASK_QUEUE: queue }).reminders}-${slot.toISOString()}`,
      args: [{ slot: slot.toISOString() }],
    })) as { sent: number; failed: number };
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = await memory.stop();
    return {
      readers,
      sent: report.sent,
      failed: report.failed,
      seconds: Math.round(seconds * 10) / 10,
      peakRssMb,
      withinTarget: seconds <= DISTRIBUTED_TARGET.seconds && report.sent === readers,
    };
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    for (const stop of stops) await stop().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { readers: { type: 'string', default: '100000' } } });
  const m = await measureDistributedReminders(Number(values.readers));
  const memory = Object.entries(m.peakRssMb)
    .map(([name, mb]) => `${name} ${mb} MB`)
    .join(', ');
  console.log(
    `distributed reminders: ${m.sent}/${m.readers} sent (${m.failed} failed) in ${m.seconds} s ` +
      `(${Math.round(m.sent / m.seconds)}/s); peak RSS per process: ${memory}` +
      (m.readers >= 100_000
        ? ` (target ${DISTRIBUTED_TARGET.seconds} s: ${m.withinTarget ? 'met' : 'NOT met'})`
        : ` (the target, ${DISTRIBUTED_TARGET.seconds} s, applies at 100,000 readers)`),
  );
  process.exit(m.sent === m.readers ? 0 : 1);
}
