// The container topology, every process its own OS process with its manifest's entry and environment, on a Kafka
// broker and a Temporal dev server of this file's own (the faults kill them; the run's shared engines serve other
// files meanwhile). One topology for every scenario, started once: what a reader and an admin do shows where they
// look for it, then faults with traffic flowing, each leaving the topology as it found it for the next.
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { install } from '../../scripts/engines/install';
import { type KafkaBroker, startKafka } from '../../scripts/engines/kafka';
import { startTemporal, type TemporalServer } from '../../scripts/engines/temporal';
import { startTopology, type Topology } from '../../scripts/topology/launcher';
import { captured, client, eventually, internal, missingEngines, sleep } from './world';

const WEBHOOK_SECRET = 'w'.repeat(40);
const skip = await missingEngines();
if (skip) console.log(`[distributed] topology: skipped: ${skip}`);

let dir: string;
let kafka: KafkaBroker | undefined;
let temporal: TemporalServer | undefined;
let topology: Topology | undefined;
const top = () => topology as Topology;
const { call, ok, once200, signIn } = client(top);

beforeAll(async () => {
  if (skip) return;
  await Promise.all([install('kafka'), install('temporal')]);
  dir = await mkdtemp(join(tmpdir(), 'nudge-dist-'));
  [kafka, temporal] = await Promise.all([startKafka(), startTemporal()]);
  topology = await startTopology({
    dir,
    kafkaBrokers: kafka.brokers,
    temporalAddress: temporal.address,
    config: { ADMIN_EMAILS: 'admin@example.com', REMINDER_BATCH_SIZE: '10' },
    // Razorpay's webhook secret (the Secret's key): the test plays Razorpay for a term that ends in seconds.
    env: { billing: { RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET } },
  });
});
// A failed scenario shows what each process logged, and what each consumer group had not consumed yet.
afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail' || !topology) return;
  console.log(topology.logs(60));
  for (const name of ['content', 'engagement', 'reporting'] as const) {
    const text = await fetch(topology.metricsUrlOf(name)).then((r) => r.text(), String);
    console.log(
      `--- ${name} /metrics\n${text
        .split('\n')
        .filter((l) => l.startsWith('nudge_consumer'))
        .join('\n')}`,
    );
  }
});
afterAll(async () => {
  await topology?.close();
  await Promise.all([kafka?.stop(), temporal?.stop()]);
  if (dir && !process.env.TOPOLOGY_KEEP) await rm(dir, { recursive: true, force: true });
});

const SLOT_MS = 15 * 60_000;
/**
 * A slot of its own per scenario, `n` slots before the current one: past, so the Schedule's own runs (every 15
 * minutes, at the current slot) never reach its readers, and within the 2-hour lateness limit, so a run of it sends.
 * The slot a test runs is the Schedule's nominal time, as it would be on time; the workflow, its activities and the
 * worker are the real ones.
 */
const pastSlot = (n: number) => (Math.floor(Date.now() / SLOT_MS) - n) * SLOT_MS;
/** A zone's wall-clock HH:MM at an instant. */
const localTime = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    at,
  );

async function temporalClient<T>(use: (c: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: (temporal as TemporalServer).address });
  try {
    return await use(new Client({ connection, namespace: 'default' }));
  } finally {
    await connection.close();
  }
}
const schedules = <T>(use: (c: Client['schedule']) => Promise<T>) => temporalClient((c) => use(c.schedule));

/**
 * The slot clock, driven: the setup Job's reminder Schedule runs its slot workflow for `slot` as its nominal time
 * (a backfill of that one instant). Resolves once the run started; `finished()` resolves with the run's report.
 */
async function runSlot(slot: number): Promise<{ finished(): Promise<unknown> }> {
  const runs = await schedules(async (s) => {
    const handle = s.getHandle('nudge-reminder-slots');
    const runsOf = async () =>
      (await handle.describe()).info.recentActions
        .filter((a) => Math.abs(a.scheduledAt.getTime() - slot) < 1_000)
        .map((a) => a.action.workflow);
    const before = new Set((await runsOf()).map((w) => w.firstExecutionRunId));
    await handle.backfill({
      start: new Date(slot - 1_000),
      end: new Date(slot + 1_000),
      overlap: 'ALLOW_ALL',
    });
    let started: { workflowId: string; firstExecutionRunId: string } | undefined;
    await eventually(
      async () => {
        started = (await runsOf()).find((w) => !before.has(w.firstExecutionRunId));
        return started !== undefined;
      },
      `the Schedule to start the slot ${new Date(slot).toISOString()}`,
    );
    return started as { workflowId: string; firstExecutionRunId: string };
  });
  return {
    finished: () =>
      temporalClient((c) =>
        c.workflow
          .getHandle(runs.workflowId, undefined, { firstExecutionRunId: runs.firstExecutionRunId })
          .result(),
      ),
  };
}
/** The reminders a reader's mailbox got: the worker's captured e-mails to them (one per send key). */
const reminders = async (email: string) =>
  (await captured(top(), 'workflows')).filter((m) => m.to === email && m.channel === 'email');

describe.skipIf(skip)('the distributed topology (Kafka, Temporal, a process per container)', () => {
  it("a reader's sign-up, read, like, comment and check-in answer show in the admin's event log and report", async () => {
    const admin = await signIn('admin@example.com');
    await once200('GET', '/api/template/alltemplates', undefined, admin.token);
    await once200('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id as string;
    const { template } = await once200(
      'POST',
      '/api/template/add',
      { heading: 'Breathe', body: 'Slowly.', subject: '', subjects: [], topic, status: true, type: 0 },
      admin.token,
    );
    const post = template._id as string;
    // Each service learns of the admin from auth's events: until then it refuses.
    await once200(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'normal', order: 0, tags: [] },
      admin.token,
    );

    const reader = await signIn('dist-reader@example.com');
    await once200('POST', `/api/template/${post}`, {}, reader.token);
    await once200('POST', '/api/like/add', { templateid: post, status: true }, reader.token);
    await once200('POST', '/api/comment/add', { templateid: post, message: 'Lovely.' }, reader.token);
    // The like and the comment reach content over Kafka: the post's counts show them.
    await eventually(async () => {
      const seen = (await ok('POST', `/api/template/${post}`, {}, reader.token)).template;
      return seen.totallikes === 1 && seen.totalcomments === 1 && seen.like === true;
    }, "the like and the comment in the post's counts");
    const issued = await internal(top(), 'engagement', '/internal/checkin/issue', { userId: reader.id });
    await ok('POST', `/api/checkin${new URL(issued.links[3].url).search}`);

    await eventually(
      async () => {
        const log = await ok('POST', '/api/eventlogs/logs?page=1&limit=50', {}, admin.token);
        const types = log.data
          .filter((r: { userId: string }) => r.userId === reader.id)
          .map((r: { eventType: string }) => r.eventType);
        return ['sign_in', 'post_read', 'like', 'comment', 'checkin_answer'].every((t) => types.includes(t));
      },
      'the event log to show the reader',
      60_000,
    );
    const { report } = await ok(
      'POST',
      '/api/report/add',
      { name: 'Readers', logo: 'https://x.test/l.png', monitoredUsers: reader.id, accessUsers: reader.id },
      admin.token,
    );
    const viewed = await ok(
      'POST',
      `/api/report/data?view=monthly&id=${report._id}&page=1`,
      {},
      reader.token,
    );
    expect(viewed.data[0]).toMatchObject({
      uniquePeopleCount: 1,
      activePeopleCount: 1,
      questionsSent: 1,
      questionsAnswered: 1,
      responseRate: 100,
    });
    // No dev outbox in the container topology.
    expect((await call('GET', '/api/dev/outbox')).status).toBe(404);
  });

  it('readers in three zones get one reminder each at their local slot, from the Schedule and the workflow', async () => {
    const admin = await signIn('admin@example.com');
    const slot = pastSlot(2);
    const zones = { kolkata: 'Asia/Kolkata', kathmandu: 'Asia/Kathmandu', newYork: 'America/New_York' };
    const readers = Object.entries(zones).map(([name, zone]) => ({
      email: `${name.toLowerCase()}@example.com`,
      zone,
      time: localTime(slot, zone),
    }));
    // Due at the next slot of their zone, not this one: nothing now.
    const later = {
      email: 'later@example.com',
      zone: 'Asia/Kolkata',
      time: localTime(slot + SLOT_MS, 'Asia/Kolkata'),
    };
    await Promise.all(
      [...readers, later].map(async (r) => {
        const me = await signIn(r.email, { timeZone: r.zone, names: false });
        await ok('POST', '/api/user/update', {
          email: r.email,
          token: me.token,
          info: {
            ageConfirmed: true,
            email: r.email,
            firstname: 'Rae',
            notiinfo: { time: r.time, active: true },
            enableEmail: true,
          },
        });
      }),
    );
    // The workflow asks auth for the due readers: auth has their times (the update answered).
    await (await runSlot(slot)).finished();
    expect(await Promise.all(readers.map(async (r) => (await reminders(r.email)).length))).toEqual([1, 1, 1]);
    // Run again (a retry of the same slot), to its end: nobody gets a second one; the reader of the next slot got none.
    await (await runSlot(slot)).finished();
    for (const r of readers) {
      const mails = await reminders(r.email);
      expect(mails, r.email).toHaveLength(1);
      expect(mails[0]?.html).toContain('Breathe');
    }
    expect(await reminders(later.email)).toHaveLength(0);
    // The e-mail figures an admin reads: one e-mail sent to each of the three.
    await eventually(
      async () => {
        const users = await ok('GET', '/api/user/getallusers?page=1&limit=50', undefined, admin.token);
        const sent = (email: string) =>
          users.data.find((u: { email: string }) => u.email === email)?.emails_sent as number | undefined;
        return readers.every((r) => sent(r.email) === 1) && (sent(later.email) ?? 0) === 0;
      },
      "each reader's e-mails sent in the admin's user table",
      60_000,
    );
  });

  it("a subscription's renewal workflow mails its notice and ends premium at the end of the term", async () => {
    const reader = await signIn('renewing@example.com');
    const checkout = await once200('POST', '/api/payment/checkout', {}, reader.token);
    const subscriptionId = checkout.subscription.subscriptionId as string;
    // Razorpay's webhooks for a term that ends in 40 s, renewal then cancelled in the dashboard.
    const now = Math.floor(Date.now() / 1000);
    const endAt = now + 40;
    const entity = (status: string) => ({
      id: subscriptionId,
      status,
      current_start: now,
      current_end: endAt,
      paid_count: 1,
      notes: { userId: reader.id },
    });
    const webhook = async (id: string, body: object) => {
      const raw = JSON.stringify({ entity: 'event', contains: [], ...body });
      const res = await fetch(`${top().url}/api/payment/verification`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-event-id': id,
          'x-razorpay-signature': createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex'),
        },
        body: raw,
      });
      expect(res.status, await res.text()).toBe(200);
    };
    await webhook('evt_dist_charged', {
      event: 'subscription.charged',
      created_at: now,
      payload: {
        subscription: { entity: entity('active') },
        payment: {
          entity: {
            id: 'pay_dist_1',
            amount: 250_000,
            currency: 'INR',
            status: 'captured',
            created_at: now,
            subscription_id: subscriptionId,
          },
        },
      },
    });
    await webhook('evt_dist_cancelled', {
      event: 'subscription.cancelled',
      created_at: now + 1,
      payload: { subscription: { entity: entity('cancelled') } },
    });
    const role = async () => (await ok('POST', '/api/user/isauth', { token: reader.token })).user.role;
    await eventually(async () => (await role()) === 'premium', 'premium from the charge', 30_000);

    // The workflow (billing started it; the worker runs it): the notice now, the expiry at the end of the term. The
    // payment's receipt, also billing's, is left aside.
    const notices = async () =>
      (await captured(top(), 'billing')).filter(
        (m) => m.to === reader.email && m.channel === 'email' && !m.idempotencyKey?.startsWith('receipt-'),
      );
    await eventually(async () => (await notices()).length === 1, 'the renewal notice', 40_000);
    expect((await notices())[0]?.subject).toMatch(/premium/i);
    expect(await role()).toBe('premium');
    await eventually(async () => (await role()) === 'user', 'premium to end with the term', 90_000);
    expect(Date.now()).toBeGreaterThanOrEqual(endAt * 1000);
    const { details } = await ok('POST', '/api/payment/details', {}, reader.token);
    expect(details.renewal).not.toBe('Active');
    expect(await notices()).toHaveLength(1);
  });
});

describe.skipIf(skip)('the distributed topology under faults', () => {
  let admin: { token: string; id: string };
  let post: string;

  it('keeps serving reads and accepting writes through a 20 s Kafka crash; nothing is lost or applied twice', async () => {
    admin = await signIn('admin@example.com');
    await once200('POST', '/api/topic/add', { topic: 'Steady' }, admin.token);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics.find(
      (t: { topic: string }) => t.topic === 'Steady',
    )._id as string;
    post = (
      await once200(
        'POST',
        '/api/template/add',
        { heading: 'Hold', body: 'Still.', subject: '', subjects: [], topic, status: true, type: 0 },
        admin.token,
      )
    ).template._id;
    const readers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => signIn(`kafka-${n}@example.com`)));
    await once200('POST', `/api/template/${post}`, {}, readers[0]?.token);

    // Traffic all along: a read of the post every 250 ms (below the gateway's per-client rate limit, which would
    // answer 429 to a faster reader over a slow restart); each reader likes it and comments during the outage.
    const reads: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        reads.push((await call('POST', `/api/template/${post}`, {}, readers[0]?.token)).status);
        await sleep(250);
      }
    })();
    await sleep(1_000);
    await kafka?.kill();
    const writes: number[] = [];
    const outageStart = Date.now();
    for (const r of readers) {
      writes.push((await call('POST', '/api/like/add', { templateid: post, status: true }, r.token)).status);
      writes.push(
        (await call('POST', '/api/comment/add', { templateid: post, message: `Kept ${r.email}` }, r.token))
          .status,
      );
      await sleep(2_000);
    }
    // Each service stays ready: its store serves; Kafka is shown as degraded.
    for (const name of ['auth', 'content', 'engagement', 'billing', 'reporting'] as const) {
      const res = await fetch(`${top().urlOf(name)}/readyz`);
      expect(res.status, name).toBe(200);
      expect((await res.json()).degraded, name).toEqual(['bus']);
    }
    await sleep(Math.max(0, 20_000 - (Date.now() - outageStart)));
    await kafka?.restart();
    reading = false;
    await reader;
    expect(
      writes.every((s) => s === 200),
      `writes answered ${writes}`,
    ).toBe(true);
    expect(reads.length).toBeGreaterThan(40);
    expect(
      reads.every((s) => s === 200),
      `reads answered ${[...new Set(reads)]}`,
    ).toBe(true);

    // Every consumer catches up: content's counts are exact (no like or comment lost, none counted twice), and
    // reporting's event log has each like.
    const restarted = Date.now();
    await eventually(
      async () => {
        const seen = (await ok('POST', `/api/template/${post}`, {}, readers[0]?.token)).template;
        return seen.totallikes === readers.length && seen.totalcomments === readers.length;
      },
      "every like and comment in content's counts",
      120_000,
    );
    console.log(`[distributed] content caught up ${Date.now() - restarted} ms after Kafka's restart`);
    // The whole log (the reads above fill many pages): the CSV an admin downloads, one line per event.
    let logged: string[] = [];
    await eventually(
      async () => {
        const csv = (await call('POST', '/api/eventlogs/alllogs', {}, admin.token)).text;
        logged = csv
          .split('\n')
          .filter((line) => line.split(',')[3] === 'like' && readers.some((r) => line.includes(r.id)));
        return logged.length === readers.length;
      },
      () => `every like in reporting's event log, once (it shows ${logged.length}:\n${logged.join('\n')})`,
      120_000,
    );
    console.log(`[distributed] reporting caught up ${Date.now() - restarted} ms after Kafka's restart`);
    await sleep(3_000);
    const seen = (await ok('POST', `/api/template/${post}`, {}, readers[0]?.token)).template;
    expect([seen.totallikes, seen.totalcomments]).toEqual([readers.length, readers.length]);
  });

  it('sends each reader one e-mail when the worker is killed with -9 in the middle of a slot', async () => {
    const slot = pastSlot(3);
    // 20 pages of 10 (REMINDER_BATCH_SIZE), 4 at a time: the worker dies with pages done, in flight and not begun.
    const emails = Array.from({ length: 200 }, (_, i) => `slot-${i}@example.com`);
    await ok(
      'POST',
      '/api/user/add',
      { info: { emails, notiinfo: { time: localTime(slot, 'UTC'), active: true } } },
      admin.token,
    );
    const sentTo = async () => {
      const counts = new Map<string, number>();
      for (const m of await captured(top(), 'workflows'))
        if (m.channel === 'email' && emails.includes(m.to)) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
      return counts;
    };
    const run = await runSlot(slot);
    await eventually(async () => (await sentTo()).size >= 10, 'the slot to be under way', 60_000);
    await top().kill('workflows');
    const before = (await sentTo()).size;
    expect(before).toBeLessThan(emails.length);
    // The pages the dead worker held move to the new one once their heartbeats time out (30 s); the slot's run ends
    // with every page done.
    await top().start('workflows');
    const report = (await run.finished()) as Record<string, number>;
    const counts = await sentTo();
    expect(
      [...counts].filter(([, n]) => n > 1),
      'readers with a second e-mail',
    ).toEqual([]);
    expect(counts.size, `${before} sent before the kill; the slot's report: ${JSON.stringify(report)}`).toBe(
      emails.length,
    );
    expect(report).toMatchObject({ failed: 0, failedPages: 0, skippedLate: 0, inDoubt: 0 });
  });

  it('keeps the Schedule through a Temporal server restart: a slot run after it sends', async () => {
    await temporal?.kill();
    await sleep(2_000);
    await temporal?.restart();
    const described = await schedules((s) => s.getHandle('nudge-reminder-slots').describe());
    expect(described.state.paused).toBe(false);
    expect(described.spec.intervals?.[0]?.every).toBe(15 * 60_000);
    // The worker reconnects and a slot run after the restart sends.
    const slot = pastSlot(4);
    await ok(
      'POST',
      '/api/user/add',
      {
        info: {
          emails: ['after-restart@example.com'],
          notiinfo: { time: localTime(slot, 'UTC'), active: true },
        },
      },
      admin.token,
    );
    await (await runSlot(slot)).finished();
    expect(await reminders('after-restart@example.com')).toHaveLength(1);
  });

  it("answers 503 on a killed service's routes only; the others keep serving, and it comes back", async () => {
    await top().kill('engagement');
    const like = await call('POST', '/api/like/add', { templateid: post, status: true }, admin.token);
    expect(like.status).toBe(503);
    expect((await call('GET', '/api/topic/getalltopics')).status).toBe(200);
    expect((await call('POST', `/api/template/${post}`, {}, admin.token)).status).toBe(200);
    expect((await call('POST', '/api/user/isauth', { token: admin.token })).status).toBe(200);
    expect((await call('POST', '/api/eventlogs/logs?page=1&limit=5', {}, admin.token)).status).toBe(200);
    // The gateway stays ready (a load balancer keeps sending it traffic), naming the service that is down.
    const ready = await fetch(`${top().url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).detail.services.engagement).toBe(false);
    await top().start('engagement');
    expect(
      (await call('POST', '/api/like/add', { templateid: post, status: true }, admin.token)).status,
    ).toBe(200);
  });
});
