// The container topology, every process its own OS process with its manifest's entry and environment, on the run's
// Kafka broker and Temporal dev server: what a reader and an admin do shows where they look for it.
import { createHmac } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Topology } from '../../scripts/topology/launcher';
import { captured, client, eventually, internal, openTopology, sharedEngines, sleep } from './world';

const WEBHOOK_SECRET = 'w'.repeat(40);
const engines = await sharedEngines();
if (engines.reason) console.log(`[distributed] flows: skipped: ${engines.reason}`);

let topology: Topology;
let remove: (() => Promise<void>) | undefined;
const { call, ok, once200, signIn } = client(() => topology);

beforeAll(async () => {
  if (engines.reason) return;
  ({ topology, remove } = await openTopology('nudge-dist-flows-', {
    kafkaBrokers: engines.kafkaBrokers,
    temporalAddress: engines.temporalAddress,
    config: { ADMIN_EMAILS: 'admin@example.com' },
    // Razorpay's webhook secret (the Secret's key): the test plays Razorpay for a term that ends in seconds.
    env: { billing: { RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET } },
  }));
});
// A failed scenario shows what each process logged.
afterEach(({ task }) => {
  if (task.result?.state === 'fail' && topology) console.log(topology.logs(60));
});
afterAll(async () => {
  await remove?.();
});

const SLOT_MS = 15 * 60_000;
/** A zone's wall-clock HH:MM at an instant. */
const localTime = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    at,
  );

/**
 * The slot clock, driven: the reminder Schedule that the setup Job created runs the slot workflow for `slot` as its
 * nominal time (a backfill of that one instant), as it would at the slot's start. The workflow, its activities and
 * the worker are the real ones.
 */
async function runSlot(slot: number) {
  const connection = await Connection.connect({ address: engines.temporalAddress });
  try {
    const schedules = new Client({ connection, namespace: 'default' }).schedule;
    await schedules
      .getHandle('nudge-reminder-slots')
      .backfill({ start: new Date(slot - 1_000), end: new Date(slot + 1_000), overlap: 'ALLOW_ALL' });
  } finally {
    await connection.close();
  }
}

describe.skipIf(engines.reason)('the distributed topology (Kafka, Temporal, a process per container)', () => {
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
    const issued = await internal(topology, 'engagement', '/internal/checkin/issue', { userId: reader.id });
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
    // A slot with time left to set the readers up in; near its end, the next one.
    let slot = Math.floor(Date.now() / SLOT_MS) * SLOT_MS;
    if (slot + SLOT_MS - Date.now() < 150_000) {
      await sleep(slot + SLOT_MS - Date.now() + 1_000);
      slot += SLOT_MS;
    }
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
    const ids: Record<string, string> = {};
    for (const r of [...readers, later]) {
      const me = await signIn(r.email, { timeZone: r.zone, names: false });
      ids[r.email] = me.id;
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
    }
    const reminders = async (email: string) =>
      (await captured(topology, 'workflows')).filter((m) => m.to === email && m.channel === 'email');
    // The workflow asks auth for the due readers: wait until auth has their times (it has: the update answered).
    await runSlot(slot);
    await eventually(
      async () => (await Promise.all(readers.map((r) => reminders(r.email)))).every((m) => m.length === 1),
      'a reminder for each reader',
      90_000,
    );
    // Run again (a retry of the same slot): nobody gets a second one; the reader of the next slot got none.
    await runSlot(slot);
    await sleep(5_000);
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
      const res = await fetch(`${topology.url}/api/payment/verification`, {
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
      (await captured(topology, 'billing')).filter(
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
