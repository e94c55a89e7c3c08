import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, loadConfig, openFileOutbox, sendIdOf } from '@nudge/platform';
import { internalPost, jsonCall } from '@nudge/platform/testing';
import { engine } from '@nudge/platform/testing/engines';
import type { Client } from '@temporalio/client';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../../deploy/standalone/src/index';
import { testStandaloneEnv } from '../../deploy/standalone/test/helpers';
import { buildWorkflows } from '../../scripts/build-workflows';
import { startTemporal } from '../../scripts/engines/temporal';
import { ensureSchedules, scheduleIds } from '../src/worker';

// The reminder slot on a real Temporal dev server (the run's engine), sent by `workflows` worker processes (the
// container entry's worker, workers/test/fixtures/worker-process.ts) through the services of a standalone process:
// two workers share a slot, a worker killed with SIGKILL in the middle of one, slots missed while no worker ran, a
// provider that throttles, readers in three zones across daylight saving changes. Every reader gets one e-mail.

const temporal = await engine('temporal');
if (!temporal.available) console.log(`[system] reminder slots on Temporal: skipped: ${temporal.reason}`);

const PUBLIC_URL = 'http://nudge.test';
const INTERNAL = `test-internal-${randomBytes(16).toString('hex')}`;
const workerEntry = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'worker-process.ts');
const MIN = 60_000;

let root = '';
let app: Standalone;
let client: Client;
let bundle = '';
let adminToken = '';
const children: ChildProcess[] = [];

const ok = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await jsonCall(app.url, method, path, body, token);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const slotOf = (ms: number) => new Date(Math.floor(ms / (15 * MIN)) * 15 * MIN);
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

describe.runIf(temporal.available)('reminder slots on Temporal', () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'nudge-slots-temporal-'));
    bundle = await buildWorkflows(join(root, 'workflows-bundle.js'));
    app = await startStandalone(
      testStandaloneEnv(join(root, 'standalone'), { PUBLIC_URL, INTERNAL_SERVICE_TOKEN: INTERNAL }),
    );
    await ok('POST', '/api/user/auth', { email: 'admin@example.com' });
    const otp = (await ok('GET', '/api/dev/outbox')).messages[0].text.match(/\b(\d{6})\b/)[1];
    adminToken = (await ok('POST', '/api/user/verify', { email: 'admin@example.com', otp })).token;
    await ok('POST', '/api/user/update', {
      email: 'admin@example.com',
      token: adminToken,
      info: { email: 'admin@example.com', notiinfo: { time: '08:00', active: false } },
    });
    const deadline = Date.now() + 30_000;
    while (
      (await jsonCall(app.url, 'GET', '/api/template/alltemplates', undefined, adminToken)).status !== 200
    ) {
      if (Date.now() > deadline) throw new Error('content never knew the admin');
      await new Promise((r) => setTimeout(r, 50));
    }
    await ok('POST', '/api/topic/add', { topic: 'Calm' }, adminToken);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id;
    await ok(
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
      adminToken,
    );
    const { Client, Connection } = await import('@temporalio/client');
    client = new Client({
      connection: await Connection.connect({ address: temporal.env?.TEMPORAL_ADDRESS ?? '' }),
    });
  }, 240_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await client?.connection.close();
    await app?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** Readers (admin-added, proven, UTC) due at `time`; their ids. */
  async function addReaders(prefix: string, count: number, time: string): Promise<string[]> {
    const emails = Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`);
    for (let i = 0; i < emails.length; i += 500)
      await ok(
        'POST',
        '/api/user/add',
        { info: { emails: emails.slice(i, i + 500), notiinfo: { time, active: true } } },
        adminToken,
      );
    return emails;
  }

  /** A queue of its own and the worker's environment on it. */
  function workerEnv(queue: string, dataDir: string, extra: Record<string, string> = {}) {
    return {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: temporal.env?.TEMPORAL_ADDRESS ?? '',
      TEMPORAL_TASK_QUEUE: queue,
      AUTH_URL: app.serviceUrls.auth,
      CONTENT_URL: app.serviceUrls.content,
      ENGAGEMENT_URL: app.serviceUrls.engagement,
      BILLING_URL: app.serviceUrls.billing,
      REPORTING_URL: app.serviceUrls.reporting,
      INTERNAL_SERVICE_TOKEN: INTERNAL,
      PUBLIC_URL,
      SERVICE_PORT: '0',
      METRICS_PORT: '0',
      ...extra,
    };
  }

  /** A worker process; resolves once it polls. */
  async function startWorker(env: NodeJS.ProcessEnv, delayMs = 0) {
    const proc = spawn(process.execPath, ['--import', 'tsx', workerEntry, bundle, String(delayMs)], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(proc);
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('WORKER READY')) resolve();
      });
      proc.on('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready`)));
    });
    return { proc, exited };
  }

  /** Every hand-over to a worker's transport (duplicates included), by send key. */
  async function handedOver(dataDir: string): Promise<string[]> {
    const file = join(dataDir, 'deliveries.log');
    if (!existsSync(file)) return [];
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  }

  /** What a worker's outbox holds (the reader's mailbox): e-mails by send key, each key at most once. */
  async function mailbox(dataDir: string) {
    const dir = join(dataDir, 'outbox');
    const byKey = new Map<string, string>();
    if (!existsSync(join(dir, 'index.bin'))) return byKey;
    const outbox = await openFileOutbox(dir);
    try {
      for (const m of await outbox.list(outbox.count(), 0))
        if (m.idempotencyKey && m.channel === 'email') byKey.set(m.idempotencyKey, m.to);
    } finally {
      await outbox.close();
    }
    return byKey;
  }

  /** The send keys engagement recorded among `emails`' reminders of `localDate`. */
  async function recordedFor(userIds: string[], localDate: string) {
    const keys = userIds.map((id) => sendIdOf(id, localDate, 'email'));
    const recorded: string[] = [];
    for (let i = 0; i < keys.length; i += 1000) {
      const res = await internalPost(
        app.serviceUrls.engagement,
        '/internal/reminders/recorded',
        { sendIds: keys.slice(i, i + 1000) },
        INTERNAL,
      );
      recorded.push(...res.body.recorded);
    }
    return recorded;
  }

  /** The due readers' ids at a slot (auth's answer, every page). */
  async function dueAt(slot: Date): Promise<Map<string, string>> {
    const due = new Map<string, string>();
    let cursor: string | undefined;
    do {
      const res = await internalPost(
        app.serviceUrls.auth,
        '/internal/reminders/due',
        { at: slot.toISOString(), limit: 1000, ...(cursor ? { cursor } : {}) },
        INTERNAL,
      );
      for (const r of res.body.readers) due.set(r.email, r.userId);
      cursor = res.body.next ?? undefined;
    } while (cursor);
    return due;
  }

  /** Runs one slot on the queue as the Schedule would (the slot named, its id per slot); resolves its report. */
  const runSlot = (queue: string, slot: Date, settings: Record<string, number> = {}) =>
    client.workflow.execute('reminderSlotWorkflow', {
      taskQueue: queue,
      workflowId: `${scheduleIds({ TEMPORAL_TASK_QUEUE: queue }).reminders}-${slot.toISOString()}`,
      args: [{ slot: slot.toISOString(), latenessMs: 120 * MIN, batchSize: 25, concurrency: 8, ...settings }],
    });

  // First in the file: the other tests' readers are due at whole UTC hours every day (04:00 among them), so a test
  // that counts a slot's sends runs before they exist; its readers stop their reminders when it ends.
  it('readers in three zones (+05:30, +05:45, London across both daylight saving changes) get exactly one e-mail a day', async () => {
    const queue = `zones-${randomBytes(4).toString('hex')}`;
    const sessions: { email: string; token: string; time: string }[] = [];
    const signUp = async (email: string, timeZone: string, time: string) => {
      await ok('POST', '/api/user/auth', { email });
      const otp = (await ok('GET', '/api/dev/outbox')).messages
        .find((m: { to: string }) => m.to === email)
        .text.match(/\b(\d{6})\b/)[1];
      const { token, user } = await ok('POST', '/api/user/verify', { email, otp, timeZone });
      await ok('POST', '/api/user/update', {
        email,
        token,
        info: { email, notiinfo: { time, active: true }, enableEmail: true },
      });
      sessions.push({ email, token, time });
      return user._id as string;
    };
    try {
      const ids = {
        kolkata: await signUp('asha-z@example.com', 'Asia/Kolkata', '08:00'),
        kathmandu: await signUp('bina-z@example.com', 'Asia/Kathmandu', '09:15'),
        // 01:30 does not happen in London on 28 March 2027 (01:00 GMT -> 02:00 BST); 01:15 happens twice on 31 October.
        spring: await signUp('cole-z@example.com', 'Europe/London', '01:30'),
        fall: await signUp('dana-z@example.com', 'Europe/London', '01:15'),
      };
      const slots = (from: string, count: number) =>
        Array.from({ length: count }, (_, i) => new Date(Date.parse(from) + i * 15 * MIN));
      const dir = join(root, queue);
      await startWorker(workerEnv(queue, dir));
      // One after another, as the Schedule starts them.
      const reports: Awaited<ReturnType<typeof runSlot>>[] = [];
      for (const slot of [...slots('2027-03-28T00:45:00.000Z', 14), ...slots('2027-10-31T00:00:00.000Z', 7)])
        reports.push(await runSlot(queue, slot));
      const handed = await handedOver(dir);
      const count = (id: string, day: string) =>
        handed.filter((k) => k === sendIdOf(id, day, 'email')).length;
      expect(count(ids.kolkata, '2027-03-28')).toBe(1);
      expect(count(ids.kathmandu, '2027-03-28')).toBe(1);
      expect(count(ids.spring, '2027-03-28')).toBe(1);
      expect(count(ids.fall, '2027-03-28')).toBe(1);
      expect(count(ids.spring, '2027-10-31')).toBe(1);
      expect(count(ids.fall, '2027-10-31')).toBe(1);
      expect(new Set(handed).size).toBe(handed.length);
      // Kolkata at 02:30 UTC, Kathmandu at 03:30 UTC; London's skipped 01:30 at the first slot after the gap.
      const sentAt = (iso: string) => reports.find((r) => r.slot === iso)?.sent;
      expect(sentAt('2027-03-28T02:30:00.000Z')).toBe(1);
      expect(sentAt('2027-03-28T03:30:00.000Z')).toBe(1);
      expect(sentAt('2027-03-28T01:00:00.000Z')).toBe(2);
      // 01:15 and 01:30 London twice on 31 October: the second time (GMT) is recorded already.
      expect(sentAt('2027-10-31T00:15:00.000Z')).toBe(1);
      expect(reports.find((r) => r.slot === '2027-10-31T01:15:00.000Z')).toMatchObject({
        sent: 0,
        alreadySent: 1,
      });
    } finally {
      for (const { email, token, time } of sessions)
        await ok('POST', '/api/user/update', {
          email,
          token,
          info: { email, notiinfo: { time, active: false } },
        });
    }
  }, 480_000);

  it('two workers on one queue share a slot’s pages and send each reader exactly once', async () => {
    const queue = `two-${randomBytes(4).toString('hex')}`;
    // Tomorrow 03:00 UTC: a slot of its own.
    const slot = new Date('2026-11-29T03:00:00.000Z');
    const emails = await addReaders('two', 300, hhmm(slot));
    const dirs = [join(root, `${queue}-a`), join(root, `${queue}-b`)];
    await Promise.all(dirs.map((dir) => startWorker(workerEnv(queue, dir), 10)));
    const report = await runSlot(queue, slot);
    const [a, b] = await Promise.all(dirs.map(handedOver));
    // No send key was handed over twice, by one worker or across the two. (Which worker takes which page is Temporal's
    // choice: on a busy machine one may take them all.)
    const all = [...(a ?? []), ...(b ?? [])];
    expect(new Set(all).size).toBe(all.length);
    const due = await dueAt(slot);
    const userIds = emails.map((e) => due.get(e) as string);
    expect(userIds.every(Boolean)).toBe(true);
    expect(all.sort()).toEqual(userIds.map((id) => sendIdOf(id, '2026-11-29', 'email')).sort());
    expect(report).toMatchObject({ sent: 300, alreadySent: 0, failed: 0, inDoubt: 0, skippedLate: 0 });
    expect((await recordedFor(userIds, '2026-11-29')).length).toBe(300);
  }, 240_000);

  it('a worker killed with SIGKILL in the middle of a slot, then started again: no reader twice, none skipped', async () => {
    const queue = `kill-${randomBytes(4).toString('hex')}`;
    const slot = new Date('2026-11-29T04:00:00.000Z');
    const emails = await addReaders('kill', 600, hhmm(slot));
    const dir = join(root, queue);
    const first = await startWorker(workerEnv(queue, dir), 15);
    const run = runSlot(queue, slot, { batchSize: 50, concurrency: 2 });
    const deadline = Date.now() + 120_000;
    while ((await handedOver(dir)).length < 150) {
      if (Date.now() > deadline) throw new Error('the slot did not start sending');
      await new Promise((r) => setTimeout(r, 50));
    }
    first.proc.kill('SIGKILL');
    await first.exited;
    const before = (await handedOver(dir)).length;
    expect(before).toBeLessThan(600);
    await startWorker(workerEnv(queue, dir), 0);
    const report = await run;
    const due = await dueAt(slot);
    const keys = emails.map((e) => sendIdOf(due.get(e) as string, '2026-11-29', 'email'));
    const box = await mailbox(dir);
    // The reader's mailbox: each exactly once.
    expect([...box.keys()].filter((k) => keys.includes(k)).sort()).toEqual([...keys].sort());
    // Handed over twice only what the killed attempt had in flight or had not reported yet (in doubt: the capture
    // transport stores a key once, so it is delivered again); every other send went once.
    const handed = await handedOver(dir);
    const twice = handed.length - new Set(handed).size;
    expect(twice).toBeLessThanOrEqual(100);
    expect(report).toMatchObject({ failed: 0, skippedLate: 0, inDoubt: 0, failedPages: 0 });
    expect(report.sent + report.alreadySent).toBeGreaterThanOrEqual(600);
    const userIds = emails.map((e) => due.get(e) as string);
    expect((await recordedFor(userIds, '2026-11-29')).length).toBe(600);
  }, 300_000);

  it('slots missed while no worker ran are sent once each when one starts, at their nominal time; those past the lateness limit are skipped and counted', async () => {
    const queue = `missed-${randomBytes(4).toString('hex')}`;
    const current = slotOf(Date.now());
    // Slots 60, 45 and 15 minutes ago: with a 40-minute lateness limit the first two are too late by the time a
    // worker runs them, the last is not.
    const [old, late, recent] = [60, 45, 15].map((m) => new Date(current.getTime() - m * MIN)) as [
      Date,
      Date,
      Date,
    ];
    const day = recent.toISOString().slice(0, 10);
    const recentEmails = await addReaders(`recent-${queue}`, 20, hhmm(recent));
    await addReaders(`late-${queue}`, 5, hhmm(late));
    await addReaders(`old-${queue}`, 5, hhmm(old));
    const config = loadConfig(
      { ...workerEnv(queue, join(root, queue)), REMINDER_LATENESS_MINUTES: '40', REMINDER_BATCH_SIZE: '10' },
      'workflows',
    );
    await ensureSchedules(client, config, createLogger('test', 'silent'));
    const schedule = client.schedule.getHandle(scheduleIds(config).reminders);
    try {
      // The Schedule's runs for the hour before this slot, while no worker polls the queue (Temporal starts them;
      // they wait for a worker).
      const backfill = {
        start: new Date(current.getTime() - 61 * MIN),
        end: current,
        overlap: 'ALLOW_ALL' as const,
      };
      await schedule.backfill([backfill]);
      const dir = join(root, queue);
      await startWorker(workerEnv(queue, dir, { REMINDER_LATENESS_MINUTES: '40' }));
      const runs = async () => {
        const out: { id: string; status: string }[] = [];
        for await (const w of client.workflow.list({
          query: `TaskQueue = '${queue}' AND WorkflowType = 'reminderSlotWorkflow'`,
        }))
          out.push({ id: w.workflowId, status: w.status.name });
        return out;
      };
      const deadline = Date.now() + 120_000;
      for (;;) {
        const listed = await runs();
        if (listed.length >= 4 && listed.every((r) => r.status === 'COMPLETED')) break;
        if (Date.now() > deadline) throw new Error(`slot runs did not complete: ${JSON.stringify(listed)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const results = new Map<string, Record<string, number>>();
      for (const r of await runs()) {
        const result = await client.workflow.getHandle(r.id).result();
        results.set(result.slot, result);
      }
      expect(results.get(recent.toISOString())).toMatchObject({ sent: 20, skippedLate: 0 });
      expect(results.get(late.toISOString())).toMatchObject({ sent: 0, skippedLate: 5 });
      expect(results.get(old.toISOString())).toMatchObject({ sent: 0, skippedLate: 5 });
      const due = await dueAt(recent);
      const keys = recentEmails.map((e) => sendIdOf(due.get(e) as string, day, 'email'));
      expect((await handedOver(dir)).sort()).toEqual([...keys].sort());

      // The same slots scheduled again (a second backfill: a Temporal failover, an operator's retry): nothing more.
      await schedule.backfill([backfill]);
      const again = Date.now() + 60_000;
      for (;;) {
        const listed = await runs();
        if (listed.length >= 8 && listed.every((r) => r.status === 'COMPLETED')) break;
        if (Date.now() > again) throw new Error('the second runs did not complete');
        await new Promise((r) => setTimeout(r, 500));
      }
      expect((await handedOver(dir)).length).toBe(20);
    } finally {
      await schedule.delete();
    }
  }, 300_000);

  it('a provider that answers 421 to every third message for a while: everything is delivered within the window, once', async () => {
    const queue = `throttle-${randomBytes(4).toString('hex')}`;
    const slot = new Date('2026-11-29T05:00:00.000Z');
    const emails = await addReaders('throttle', 90, hhmm(slot));
    let messages = 0;
    let throttled = 0;
    // A minute of throttling from the first message on (a worker's start takes its own time on a busy machine).
    let throttleUntil = 0;
    const received: string[] = [];
    const sink = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          messages += 1;
          if (messages === 1) throttleUntil = Date.now() + 60_000;
          if (Date.now() < throttleUntil && messages % 3 === 0 && throttled < 40) {
            throttled += 1;
            return callback(
              Object.assign(new Error('4.7.0 Too many messages, slow down'), { responseCode: 421 }),
            );
          }
          received.push(/^Message-ID:\s*<([^@>]+)@/im.exec(data)?.[1] ?? '');
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    try {
      const port = (sink.server.address() as AddressInfo).port;
      await startWorker(
        workerEnv(queue, join(root, queue), { MAIL_TRANSPORT: 'smtp', SMTP_URL: `smtp://127.0.0.1:${port}` }),
      );
      const report = await runSlot(queue, slot, { batchSize: 30, concurrency: 3 });
      expect(throttled).toBeGreaterThan(10);
      const due = await dueAt(slot);
      const keys = emails.map((e) => sendIdOf(due.get(e) as string, '2026-11-29', 'email'));
      expect([...received].sort()).toEqual([...keys].sort());
      expect(report).toMatchObject({ sent: 90, failed: 0, skippedLate: 0, inDoubt: 0 });
    } finally {
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    }
  }, 240_000);

  it('a Temporal server killed with SIGKILL in the middle of a slot, then started again: no reader twice, none skipped', async () => {
    // A server of its own: the run's shared one serves other suites.
    const server = await startTemporal();
    const { Client, Connection } = await import('@temporalio/client');
    const own = new Client({ connection: await Connection.connect({ address: server.address }) });
    try {
      const queue = `restart-${randomBytes(4).toString('hex')}`;
      const slot = new Date('2026-11-29T06:00:00.000Z');
      const emails = await addReaders('restart', 400, hhmm(slot));
      const dir = join(root, queue);
      await startWorker(workerEnv(queue, dir, { TEMPORAL_ADDRESS: server.address }), 15);
      const handle = await own.workflow.start('reminderSlotWorkflow', {
        taskQueue: queue,
        workflowId: `${scheduleIds({ TEMPORAL_TASK_QUEUE: queue }).reminders}-${slot.toISOString()}`,
        args: [{ slot: slot.toISOString(), latenessMs: 120 * MIN, batchSize: 50, concurrency: 2 }],
      });
      const deadline = Date.now() + 120_000;
      while ((await handedOver(dir)).length < 100) {
        if (Date.now() > deadline) throw new Error('the slot did not start sending');
        await new Promise((r) => setTimeout(r, 50));
      }
      await server.kill();
      expect((await handedOver(dir)).length).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 3_000));
      await server.restart();
      const report = await handle.result();
      const due = await dueAt(slot);
      const keys = emails.map((e) => sendIdOf(due.get(e) as string, '2026-11-29', 'email'));
      const handed = await handedOver(dir);
      expect([...new Set(handed)].sort()).toEqual([...keys].sort());
      expect(handed.length).toBe(new Set(handed).size);
      expect(report).toMatchObject({ failed: 0, skippedLate: 0, inDoubt: 0, failedPages: 0 });
      expect(
        (
          await recordedFor(
            emails.map((e) => due.get(e) as string),
            '2026-11-29',
          )
        ).length,
      ).toBe(400);
    } finally {
      await own.connection.close();
      await server.stop();
    }
  }, 300_000);
});
