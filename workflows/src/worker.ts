import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type Config,
  createLogger,
  type Logger,
  loadInternalToken,
  type Messaging,
  serviceUrlsOf,
  temporalConnection,
  trackingSecret,
} from '@nudge/platform';
import { Context } from '@temporalio/activity';
import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import {
  type Activities,
  type ActivityProgress,
  BusinessRefusal,
  createActivities,
  createInternalCall,
  type PageProgress,
} from './activities';
import { tracingClientInterceptors, workerTracing } from './tracing';

/**
 * The Schedules of a task queue: `nudge-reminder-slots` and `nudge-refund-reconcile` for the default queue, the
 * queue's name appended for another (two deployments sharing a namespace on different queues each get their own).
 */
export function scheduleIds(config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>) {
  const suffix = config.TEMPORAL_TASK_QUEUE === DEFAULT_TASK_QUEUE ? '' : `-${config.TEMPORAL_TASK_QUEUE}`;
  return { reminders: `nudge-reminder-slots${suffix}`, refunds: `nudge-refund-reconcile${suffix}` };
}
const DEFAULT_TASK_QUEUE = 'nudge-reminders';

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
 * every 15 minutes. A slot's run is `<schedule id>-<nominal time>` and sends the slot of its nominal time; runs of
 * different slots may overlap (a late one never holds up the next), and after an outage Temporal starts each slot
 * missed within the lateness limit (the catch-up window) once. An existing Schedule is left as it is (an operator may
 * have paused it). Renewals need none: billing starts a workflow per subscription (signalWithStart); the old renewal
 * tick's Schedule is deleted.
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
  const ids = scheduleIds(config);
  await create(ids.reminders, 'reminderSlotWorkflow', [slotSettings(config)]);
  // One reconciliation at a time: a run still going when the next is due is skipped.
  await create(ids.refunds, 'refundReconcileWorkflow', [], 'SKIP');
}

/** A slot run's settings (the Schedule's argument; its slot is the nominal time). */
export const slotSettings = (config: Config) => ({
  latenessMs: config.REMINDER_LATENESS_MINUTES * 60_000,
  batchSize: config.REMINDER_BATCH_SIZE,
  concurrency: config.REMINDER_PAGE_CONCURRENCY,
});

export const workflowsPath = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));
/** The workflow code bundled at build time (scripts/build-workflows.ts). */
export const WORKFLOW_BUNDLE_PATH = fileURLToPath(new URL('../dist/workflows-bundle.js', import.meta.url));
export const workflowInterceptorModules = workerTracing().interceptors?.workflowModules ?? [];

/**
 * A page activity's link to Temporal: heartbeats carry what it delivered and has not recorded yet, the next attempt
 * reads them back, and a worker's shutdown cancels it (seen through the heartbeats).
 */
export function temporalProgress(): ActivityProgress | undefined {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return undefined;
  }
  return {
    heartbeat: (details) => ctx.heartbeat(details),
    details: ctx.info.heartbeatDetails as PageProgress | undefined,
    signal: ctx.cancellationSignal,
  };
}

/** Delivered sends a page records at least this often on Temporal (what a kill -9 can leave in doubt). */
const RECORD_EVERY = 100;

/**
 * The workflow code to run: the bundle built at build time; without one (a developer's checkout) it is bundled now,
 * which production refuses.
 */
function workflowCode(config: Config, log: Logger, codePath = WORKFLOW_BUNDLE_PATH) {
  if (existsSync(codePath)) return { workflowBundle: { codePath } };
  if (config.NODE_ENV === 'production')
    throw new Error(`${WORKFLOW_BUNDLE_PATH} is missing: build it with npm run build:workflows`);
  log.warn('no prebuilt workflow bundle (npm run build:workflows): bundling the workflow code now');
  return { workflowsPath };
}

/** The container entry's work: activities from configuration, the Schedules, then the worker until shutdown. */
export async function runWorker(
  config: Config,
  // The container's messaging (its captured messages go to its outbox store): required, never a default built here.
  opts: { messaging: Messaging; log?: Logger; workflowBundlePath?: string },
) {
  if (!config.TEMPORAL_ADDRESS)
    throw new Error('TEMPORAL_ADDRESS is not set: the workflows worker needs Temporal');
  const log = (opts.log ?? createLogger('nudge', config.LOG_LEVEL)).child({ service: 'workflows' });
  const internalToken = await loadInternalToken(config);
  const { messaging } = opts;
  const activities: Activities = createActivities({
    call: createInternalCall({ serviceUrls: serviceUrlsOf(config), internalToken }),
    mail: messaging.mail,
    whatsapp: messaging.whatsapp,
    trackingSecret: trackingSecret(internalToken),
    publicUrl: config.PUBLIC_URL,
    log,
    clock: () => new Date(),
    ...(config.WHATSAPP_DAILY_RECIPIENTS > 0
      ? { whatsappDailyRecipients: config.WHATSAPP_DAILY_RECIPIENTS }
      : {}),
    progress: temporalProgress,
    recordEvery: RECORD_EVERY,
  });
  const client = new Client({
    connection: await Connection.connect(temporalConnection(config)),
    namespace: config.TEMPORAL_NAMESPACE,
    interceptors: tracingClientInterceptors(),
  });
  await ensureSchedules(client, config, log);
  const { interceptors, sinks } = workerTracing();
  const worker = await Worker.create({
    connection: await NativeConnection.connect(temporalConnection(config)),
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...workflowCode(config, log, opts.workflowBundlePath),
    activities: forTemporal(activities),
    // OpenTelemetry: activity interceptors and the workflow spans' sink (the workflow interceptors are bundled).
    interceptors: { activity: interceptors?.activity ?? [] },
    ...(sinks ? { sinks } : {}),
    ...WORKER_TUNING,
  });
  log.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'workflows worker running');
  return worker;
}

/**
 * - Page activities at once per worker: the slot's pages (REMINDER_PAGE_CONCURRENCY) spread over the workers.
 * - Heartbeat details reach the server at least every second (the default waits up to 80% of the heartbeat
 *   timeout), so a killed worker's page is retried from at most a second of deliveries back.
 * - A shutdown (SIGTERM) lets the activities in flight finish for 30 s, longer than any one message's delivery; then
 *   they are cancelled, record what they delivered and stop.
 */
export const WORKER_TUNING = {
  maxConcurrentActivityTaskExecutions: 16,
  maxHeartbeatThrottleInterval: '1 second',
  shutdownGraceTime: '30 seconds',
} as const;
