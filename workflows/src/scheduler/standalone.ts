import { join } from 'node:path';
import type { ServiceName } from '@nudge/contracts';
import {
  type Config,
  createDocumentStore,
  type Logger,
  loadInternalToken,
  type Messaging,
  trackingSecret,
} from '@nudge/platform';
import { createActivities, createInternalCall } from '../activities';
import { createEmbeddedScheduler, type SlotReport } from './embedded';
import { createEmbeddedRenewals, type EmbeddedRenewals } from './renewals';

export interface EmbeddedReminders {
  /** Runs every slot due by the clock now (resume, catch-up, current slot) and reports each; then renewal steps. */
  runDue(): Promise<SlotReport[]>;
  close(): Promise<void>;
}

export interface EmbeddedWorkflows extends EmbeddedReminders {
  /** billing's RenewalScheduler port: durable timers in DATA_DIR/workflows (hand it to billing at boot). */
  renewals: Pick<EmbeddedRenewals, 'planChanged' | 'timer'>;
  /** Starts ticking (unless REMINDER_SCHEDULER=off); call once the services answer. */
  start(): void;
}

/**
 * The standalone process's workflows: the same activities the Temporal worker runs, driven by the embedded
 * scheduler (reminder slots, then the renewal workflows' due steps), with its state in DATA_DIR/workflows.
 * Opened before the services (billing gets the renewals port); started after them.
 */
export async function openEmbeddedWorkflows(opts: {
  config: Config;
  log: Logger;
  messaging: Messaging;
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** The scheduler's clock (tests drive it); the services keep their own. */
  clock?: () => Date;
}): Promise<EmbeddedWorkflows> {
  const { config } = opts;
  const log = opts.log.child({ service: 'workflows' });
  const clock = opts.clock ?? (() => new Date());
  const internalToken = await loadInternalToken(config);
  const store = await createDocumentStore({
    kind: config.DOCUMENT_STORE,
    dir: join(config.DATA_DIR, 'workflows'),
    ...(config.MONGODB_URL ? { mongoUrl: config.MONGODB_URL } : {}),
    dbName: `${config.MONGODB_DB_PREFIX}_workflows`,
  });
  const activities = createActivities({
    call: createInternalCall({ serviceUrls: opts.serviceUrls, internalToken }),
    mail: opts.messaging.mail,
    whatsapp: opts.messaging.whatsapp,
    trackingSecret: trackingSecret(internalToken),
    publicUrl: config.PUBLIC_URL,
    log,
    clock,
    ...(config.WHATSAPP_DAILY_RECIPIENTS > 0
      ? { whatsappDailyRecipients: config.WHATSAPP_DAILY_RECIPIENTS }
      : {}),
  });
  const renewals = createEmbeddedRenewals({ store, log, activities });
  await renewals.ensureIndexes();
  const scheduler = createEmbeddedScheduler({
    store,
    activities,
    renewals,
    log,
    clock,
    latenessMs: config.REMINDER_LATENESS_MINUTES * 60_000,
    batchSize: config.REMINDER_BATCH_SIZE,
    concurrency: config.REMINDER_PAGE_CONCURRENCY,
  });
  return {
    renewals: { planChanged: (plan) => renewals.planChanged(plan), timer: (id) => renewals.timer(id) },
    start() {
      if (config.REMINDER_SCHEDULER === 'on') scheduler.start();
    },
    runDue: () => scheduler.runDue(),
    async close() {
      await scheduler.stop();
      await store.close();
    },
  };
}
