import { randomBytes } from 'node:crypto';
import { RENEWAL_PLAN_SIGNAL, type RenewalPlan, type RenewalStep, renewalWorkflowId } from '@nudge/contracts';
import { createLogger, type MailMessage, sendIdOf } from '@nudge/platform';
import { engine } from '@nudge/platform/testing/engines';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities, type InternalCall } from '../src/activities';
import { workerTracing } from '../src/tracing';
import { forTemporal, workflowsPath } from '../src/worker';
import { fakeServices, quietTemporalRuntime, reader } from './fixtures';

// The Temporal side of the reminders. The workflow code is bundled as the worker bundles it (proving it imports
// nothing non-deterministic); the activities run in MockActivityEnvironment; a real worker runs on the run's Temporal
// dev server, and the renewal workflow on the time-skipping test server (scripts/engines).

function activitiesWith(services: { call: InternalCall }, clock = () => new Date('2026-11-24T08:00:05Z')) {
  const mails: MailMessage[] = [];
  const texts: unknown[] = [];
  const activities = forTemporal(
    createActivities({
      call: services.call,
      mail: { send: async (m) => void mails.push(m) },
      whatsapp: { send: async (m) => void texts.push(m) },
      trackingSecret: randomBytes(32),
      publicUrl: 'https://nudge.example',
      log: createLogger('test', 'silent'),
      clock,
      random: () => 0.5,
    }),
  );
  return { activities, mails, texts };
}

describe('workflow code', () => {
  it('bundles for the Temporal sandbox with the tracing interceptors, as the worker does (no Node or non-deterministic imports)', async () => {
    const { code } = await bundleWorkflowCode({
      workflowsPath,
      workflowInterceptorModules: workerTracing().interceptors?.workflowModules ?? [],
      logger: undefined,
    });
    expect(code).toContain('reminderSlotWorkflow');
    expect(code).toContain('refundReconcileWorkflow');
    // The OpenTelemetry workflow interceptors are in the bundle (their trace header and span names).
    expect(code).toContain('_tracer-data');
    expect(code).toContain('OpenTelemetryInboundInterceptor');
    expect(code).toContain('renewalWorkflow');
    expect(code).not.toContain('renewalTickWorkflow');
    expect(code).not.toContain('nodemailer');
  }, 120_000);
});

describe('activities in MockActivityEnvironment', () => {
  it('sendBatch: one call per service for the batch, a message per channel, recorded once with the subject', async () => {
    const services = fakeServices();
    const { activities, mails, texts } = activitiesWith(services);
    const env = new MockActivityEnvironment();
    const result = await env.run(activities.sendBatch, {
      slot: '2026-11-24T08:00:00.000Z',
      readers: [1, 2, 3].map(reader),
    });
    expect(result).toEqual({
      sent: 4,
      alreadySent: 0,
      nothing: 0,
      failed: 0,
      skippedLate: 0,
      inDoubt: 0,
      overLimit: 0,
      suppressed: 0,
    });
    expect(services.calls).toEqual({
      '/internal/suppressions/check': 1,
      '/internal/reminders/claim': 1,
      '/internal/reminders/posts': 1,
      '/internal/tokens/links': 1,
      '/internal/email-stats': 1,
      '/internal/reminders/sent': 1,
    });
    expect(mails.map((m) => m.to)).toEqual(['r1@example.com', 'r2@example.com', 'r3@example.com']);
    expect(mails[0]?.subject).toBe('Nudge: Breathe in');
    expect(mails[0]?.idempotencyKey).toBe(sendIdOf(reader(1).userId, '2026-11-24', 'email'));
    expect(texts).toHaveLength(1);
    expect(services.sent).toHaveLength(4);
  });

  it('sendBatch skips send keys already recorded (a resumed slot sends nobody twice)', async () => {
    const done = sendIdOf(reader(2).userId, '2026-11-24', 'email');
    const services = fakeServices({ recorded: [done] });
    const { activities, mails } = activitiesWith(services);
    const result = await new MockActivityEnvironment().run(activities.sendBatch, {
      slot: '2026-11-24T08:00:00.000Z',
      readers: [reader(2), reader(3)],
    });
    expect(result).toMatchObject({ sent: 1, alreadySent: 1 });
    expect(mails.map((m) => m.to)).toEqual(['r3@example.com']);
  });

  it('sendBatch asks reporting for the subject counts once a minute, not once per batch; a failed ask is not kept', async () => {
    let now = new Date('2026-11-24T08:00:05Z').getTime();
    const batch = { slot: '2026-11-24T08:00:00.000Z', readers: [reader(2)] };
    const services = fakeServices();
    const { activities, mails } = activitiesWith(services, () => new Date(now));
    const env = new MockActivityEnvironment();
    await env.run(activities.sendBatch, batch);
    now += 30_000;
    await env.run(activities.sendBatch, batch);
    expect(services.calls['/internal/email-stats']).toBe(1);
    now += 31_000;
    await env.run(activities.sendBatch, batch);
    expect(services.calls['/internal/email-stats']).toBe(2);
    expect(mails).toHaveLength(3);

    const failing = fakeServices({ refuse: '/internal/email-stats' });
    const other = activitiesWith(failing, () => new Date(now));
    await env.run(other.activities.sendBatch, batch);
    await env.run(other.activities.sendBatch, batch);
    expect(failing.calls['/internal/email-stats']).toBe(2);
    expect(other.mails).toHaveLength(2);
  });

  it('a business refusal is a non-retryable ApplicationFailure; nothing is delivered', async () => {
    const services = fakeServices({ refuse: '/internal/reminders/posts' });
    const { activities, mails } = activitiesWith(services);
    const error = await new MockActivityEnvironment()
      .run(activities.sendBatch, { slot: '2026-11-24T08:00:00.000Z', readers: [reader(2)] })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBe(true);
    expect(mails).toEqual([]);
  });
});

describe('the renewal step activity in MockActivityEnvironment', () => {
  const step = {
    subscriptionId: 'sub_1',
    kind: 'notice' as const,
    endAt: '2027-03-01T10:00:00.000Z',
    at: '2027-02-22T10:00:00.000Z',
  };
  it("calls billing's renewal-step route and answers its plan", async () => {
    const bodies: unknown[] = [];
    const plan = { subscriptionId: 'sub_1', endAt: step.endAt, next: null };
    const { activities } = activitiesWith({
      call: async <T>(service: string, path: string, body: unknown): Promise<T> => {
        bodies.push([service, path, body]);
        return { status: true, outcome: 'notice-sent', plan } as T;
      },
    });
    const result = await new MockActivityEnvironment().run(activities.renewalStep, step);
    expect(result).toMatchObject({ outcome: 'notice-sent', plan });
    expect(bodies).toEqual([['billing', '/internal/subscriptions/renewal-step', step]]);
  });

  it("billing's refusal is a non-retryable ApplicationFailure", async () => {
    const { activities } = activitiesWith(fakeServices({ refuse: '/internal/subscriptions/renewal-step' }));
    const error = await new MockActivityEnvironment()
      .run(activities.renewalStep, step)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBe(true);
  });
});

quietTemporalRuntime();
/** The workflow code bundled once for this file's workers (a bundle takes seconds of CPU). */
let bundled: Promise<{ code: string }> | undefined;
const workflowBundle = () => {
  bundled ??= bundleWorkflowCode({ workflowsPath });
  return bundled;
};

const temporal = await engine('temporal');
if (!temporal.available)
  console.log(`[integration] workflows / Temporal worker: skipped: ${temporal.reason}`);
const temporalAddress = temporal.env?.TEMPORAL_ADDRESS ?? '';

describe.runIf(temporal.available)('a real Temporal server', () => {
  it('runs a reminder slot workflow on the worker with the activities', async () => {
    const { Client, Connection } = await import('@temporalio/client');
    const { NativeConnection, Worker } = await import('@temporalio/worker');
    const services = fakeServices({ due: [reader(5)] });
    const { activities, mails } = activitiesWith(services, () => new Date());
    const taskQueue = `test-${randomBytes(4).toString('hex')}`;
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporalAddress }),
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    const client = new Client({
      connection: await Connection.connect({ address: temporalAddress }),
    });
    const result = await worker.runUntil(
      client.workflow.execute('reminderSlotWorkflow', {
        taskQueue,
        workflowId: `test-slot-${taskQueue}`,
        args: [{ slot: new Date(Math.floor(Date.now() / 900_000) * 900_000).toISOString() }],
      }),
    );
    expect(result).toMatchObject({ sent: 1 });
    expect(mails.map((m) => m.to)).toEqual(['r5@example.com']);
  }, 60_000);
});

// The renewal workflow on Temporal's time-skipping test server: a year of waiting in milliseconds. The SDK starts the
// installed binary (never a download).
const testServer = await engine('temporal-test-server');
if (!testServer.available)
  console.log(`[integration] workflows / renewalWorkflow (time-skipping): skipped: ${testServer.reason}`);

describe.runIf(testServer.available)('renewalWorkflow on the time-skipping test server', () => {
  type Env = import('@temporalio/testing').TestWorkflowEnvironment;
  let env: Env;
  beforeAll(async () => {
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: {
        executable: { type: 'existing-path', path: testServer.env?.TEMPORAL_TEST_SERVER_PATH ?? '' },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await env?.teardown();
  });

  const DAY = 24 * 3600_000;
  /** Billing as the workflow sees it: a subscription's plan, and each step's answer. */
  const fakeBilling = (endAt: string, grace = 2 * DAY) => {
    const steps: (RenewalStep & { now: number })[] = [];
    let noticeDone = false;
    const planFor = (id: string, end: string): RenewalPlan => ({
      subscriptionId: id,
      endAt: end,
      next: noticeDone
        ? { kind: 'expiry', at: new Date(Date.parse(end) + grace).toISOString() }
        : { kind: 'notice', at: new Date(Date.parse(end) - 7 * DAY).toISOString() },
    });
    return {
      steps,
      planFor,
      activities: {
        async renewalStep(input: RenewalStep) {
          steps.push({ ...input, now: Date.parse(input.at) });
          if (input.kind === 'notice') noticeDone = true;
          if (input.kind === 'expiry')
            return {
              outcome: 'expired' as const,
              plan: { subscriptionId: input.subscriptionId, endAt: input.endAt, next: null },
            };
          return { outcome: 'notice-sent' as const, plan: planFor(input.subscriptionId, endAt) };
        },
      },
    };
  };

  /** A worker on a queue of its own, with the renewal activities given. */
  const renewalWorker = async (activities: object) => {
    const { Worker } = await import('@temporalio/worker');
    const taskQueue = `renewals-${randomBytes(4).toString('hex')}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    return { worker, taskQueue };
  };

  it('sends the notice 7 days before endAt and expires after the grace period, then ends', async () => {
    const start = Date.now();
    const endAt = new Date(start + 30 * DAY).toISOString();
    const billing = fakeBilling(endAt);
    const { worker, taskQueue } = await renewalWorker(billing.activities);
    const result = await worker.runUntil(
      env.client.workflow.execute('renewalWorkflow', {
        taskQueue,
        workflowId: renewalWorkflowId('sub_ts1'),
        args: [billing.planFor('sub_ts1', endAt)],
      }),
    );
    expect(result).toMatchObject({ next: null });
    expect(billing.steps.map((s) => s.kind)).toEqual(['notice', 'expiry']);
    expect(billing.steps[0]!.now).toBeGreaterThanOrEqual(Date.parse(endAt) - 7 * DAY);
    expect(billing.steps[1]!.now).toBeGreaterThanOrEqual(Date.parse(endAt) + 2 * DAY);
  }, 120_000);

  it('a signalled plan (a renewal moved endAt) replaces the wait', async () => {
    const start = Date.now();
    const endAt = new Date(start + 30 * DAY).toISOString();
    const later = new Date(start + 395 * DAY).toISOString();
    const billing = fakeBilling(later);
    const { worker, taskQueue } = await renewalWorker(billing.activities);
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.signalWithStart('renewalWorkflow', {
        taskQueue,
        workflowId: renewalWorkflowId('sub_ts2'),
        args: [billing.planFor('sub_ts2', endAt)],
        signal: RENEWAL_PLAN_SIGNAL,
        signalArgs: [billing.planFor('sub_ts2', later)],
      });
      await handle.result();
    });
    expect(billing.steps.map((s) => [s.kind, s.endAt])).toEqual([
      ['notice', later],
      ['expiry', later],
    ]);
  }, 120_000);
});
