import { fileURLToPath } from 'node:url';
import {
  type Config,
  createLogger,
  createMessaging,
  type Logger,
  loadInternalToken,
  type Messaging,
  serviceUrlsOf,
  trackingSecret,
} from '@nudge/platform';
import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { type Activities, BusinessRefusal, createActivities, createInternalCall } from './activities';
import { tracingClientInterceptors, workerTracing } from './tracing';

export const REMINDER_SCHEDULE_ID = 'nudge-reminder-slots';
export const REFUND_RECONCILE_SCHEDULE_ID = 'nudge-refund-reconcile';

/** Business refusals (4xx from a service) are non-retryable on Temporal; everything else is retried. */
export function forTemporal<A extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: A,
): A {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        if (err instanceof BusinessRefusal)
          throw ApplicationFailure.nonRetryable(err.message, 'BusinessRefusal', { status: err.status });
        throw err;
      }
    };
  }
  return wrapped as A;
}

/**
 * The Schedules (created idempotently at every start): a reminder slot workflow and the refund reconciliation, each
 * every 15 minutes. An existing Schedule is left as it is (an operator may have paused it). Renewals need none:
 * billing starts a workflow per subscription (signalWithStart); the old renewal tick's Schedule is deleted.
 */
export async function ensureSchedules(client: Client, config: Config, log: Logger) {
  const every = [{ every: '15m' }];
  const create = async (
    scheduleId: string,
    workflowType: string,
    args: unknown[],
    overlap: 'ALLOW_ALL' | 'SKIP' = 'ALLOW_ALL',
  ) => {
    try {
      await client.schedule.create({
        scheduleId,
        spec: { intervals: every },
        policies: { overlap, catchupWindow: `${config.REMINDER_LATENESS_MINUTES}m` },
        action: { type: 'startWorkflow', workflowType, taskQueue: config.TEMPORAL_TASK_QUEUE, args },
      });
      log.info({ scheduleId }, 'schedule created');
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  };
  await create(REMINDER_SCHEDULE_ID, 'reminderSlotWorkflow', [
    { latenessMs: config.REMINDER_LATENESS_MINUTES * 60_000, batchSize: config.REMINDER_BATCH_SIZE },
  ]);
  // One reconciliation at a time: a run still going when the next is due is skipped.
  await create(REFUND_RECONCILE_SCHEDULE_ID, 'refundReconcileWorkflow', [], 'SKIP');
}

export const workflowsPath = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

/** The container entry's work: activities from configuration, the Schedules, then the worker until shutdown. */
export async function runWorker(config: Config, opts: { messaging?: Messaging; log?: Logger } = {}) {
  if (!config.TEMPORAL_ADDRESS)
    throw new Error('TEMPORAL_ADDRESS is not set: the workflows worker needs Temporal');
  const log = (opts.log ?? createLogger('nudge', config.LOG_LEVEL)).child({ service: 'workflows' });
  const internalToken = await loadInternalToken(config);
  const messaging = opts.messaging ?? createMessaging(config);
  const activities: Activities = createActivities({
    call: createInternalCall({ serviceUrls: serviceUrlsOf(config), internalToken }),
    mail: messaging.mail,
    whatsapp: messaging.whatsapp,
    trackingSecret: trackingSecret(internalToken),
    publicUrl: config.PUBLIC_URL,
    log,
    clock: () => new Date(),
  });
  const client = new Client({
    connection: await Connection.connect({ address: config.TEMPORAL_ADDRESS }),
    namespace: config.TEMPORAL_NAMESPACE,
    interceptors: tracingClientInterceptors(),
  });
  await ensureSchedules(client, config, log);
  const worker = await Worker.create({
    connection: await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }),
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowsPath,
    activities: forTemporal(activities),
    // OpenTelemetry: workflow interceptors (bundled), activity interceptors, the workflow spans' sink.
    ...workerTracing(),
  });
  log.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'workflows worker running');
  return worker;
}
