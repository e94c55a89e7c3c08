import { randomBytes } from 'node:crypto';
import type { DueReader } from '@nudge/contracts';
import { createLogger, type MailMessage, sendIdOf } from '@nudge/platform';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { BusinessRefusal, createActivities, type InternalCall } from '../src/activities';
import { workerTracing } from '../src/tracing';
import { forTemporal, workflowsPath } from '../src/worker';

// The Temporal side of the reminders. The workflow code is bundled as the worker bundles it (proving it imports
// nothing non-deterministic); the activities run in MockActivityEnvironment; a real worker runs where
// TEMPORAL_ADDRESS is set.

const reader = (n: number): DueReader => ({
  userId: `${String(n).padStart(24, '0')}`,
  email: `r${n}@example.com`,
  firstname: `R${n}`,
  role: 'user',
  timeZone: 'UTC',
  slot: '08:00',
  localDate: '2026-11-24',
  email_on: true,
  whatsapp: n === 1 ? '9876543210' : null,
});

/** Fake services answering the internal routes, counting calls per path. */
function fakeServices(opts: { recorded?: string[]; refuse?: string } = {}) {
  const calls: Record<string, number> = {};
  const sent: unknown[] = [];
  const call: InternalCall = async <T>(_service: string, path: string, body: unknown): Promise<T> => {
    calls[path] = (calls[path] ?? 0) + 1;
    if (path === opts.refuse) throw new BusinessRefusal(`${path}: refused`, 400);
    const b = body as any;
    const answers: Record<string, () => unknown> = {
      '/internal/reminders/recorded': () => ({
        status: true,
        recorded: opts.recorded ?? [],
        opened: [],
        clicked: [],
      }),
      '/internal/reminders/posts': () => ({
        status: true,
        settings: {
          subjectprefix: 'Nudge: ',
          emailcheckin: false,
          emailrecommendation: false,
          sitetitle: 'Nudge',
          footersitetitle: 'Nudge',
          emaillogo: '',
          headingcolor: '#111',
          paragraphcolor: '#333',
          buttoncolor: '#25e',
          buttonfontcolor: '#fff',
          backgroundcolor: '#fff',
          recommendationheading: 'More',
          emailupdateheadline: '',
        },
        posts: Object.fromEntries(
          b.readers?.map((r: { userId: string }) => [
            r.userId,
            {
              template: { _id: 'p1', heading: 'Breathe', body: 'Slowly.', image: '' },
              subjects: [{ id: 's1', title: 'Breathe in' }],
              recommendations: [],
            },
          ]) ?? [],
        ),
      }),
      '/internal/tokens/links': () => ({
        status: true,
        links: Object.fromEntries(
          b.userIds?.map((id: string) => [id, { signin: 'si', unsubscribe: 'un' }]) ?? [],
        ),
      }),
      '/internal/email-stats': () => ({ status: true, templates: {} }),
      '/internal/reminders/sent': () => {
        sent.push(...b.sends);
        return { status: true, recorded: b.sends.length, duplicates: 0 };
      },
    };
    return answers[path]?.() as T;
  };
  return { call, calls, sent };
}

function activitiesWith(services: ReturnType<typeof fakeServices>) {
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
      clock: () => new Date('2026-11-24T08:00:05Z'),
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
    expect(code).toContain('renewalTickWorkflow');
    expect(code).toContain('refundReconcileWorkflow');
    // The OpenTelemetry workflow interceptors are in the bundle (their trace header and span names).
    expect(code).toContain('_tracer-data');
    expect(code).toContain('OpenTelemetryInboundInterceptor');
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
    expect(result).toEqual({ sent: 4, alreadySent: 0, nothing: 0, failed: 0 });
    expect(services.calls).toEqual({
      '/internal/reminders/recorded': 1,
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

const temporalAddress = process.env.TEMPORAL_ADDRESS;
if (!temporalAddress)
  console.log(
    '[integration] workflows / Temporal worker: skipped: TEMPORAL_ADDRESS is not set (no Temporal server)',
  );

describe.runIf(Boolean(temporalAddress))('a real Temporal server', () => {
  it('runs a reminder slot workflow on the worker with the activities', async () => {
    const { Client, Connection } = await import('@temporalio/client');
    const { NativeConnection, Worker } = await import('@temporalio/worker');
    const services = fakeServices();
    const { activities, mails } = activitiesWith(services);
    const dueReaders = async () => ({ readers: [reader(5)], next: null });
    const taskQueue = `test-${randomBytes(4).toString('hex')}`;
    const worker = await Worker.create({
      connection: await NativeConnection.connect({ address: temporalAddress as string }),
      taskQueue,
      workflowsPath,
      activities: { ...activities, dueReaders },
    });
    const client = new Client({
      connection: await Connection.connect({ address: temporalAddress as string }),
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
