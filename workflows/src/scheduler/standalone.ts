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

export interface EmbeddedReminders {
  /** Runs every slot due by the clock now (resume, catch-up, current slot) and reports each. */
  runDue(): Promise<SlotReport[]>;
  close(): Promise<void>;
}

/**
 * The standalone process's reminders: the same activities the Temporal worker runs, driven by the embedded
 * scheduler, with its state in DATA_DIR/workflows. Starts ticking unless REMINDER_SCHEDULER=off.
 */
export async function startEmbeddedReminders(opts: {
  config: Config;
  log: Logger;
  messaging: Messaging;
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** The scheduler's clock (tests drive it); the services keep their own. */
  clock?: () => Date;
}): Promise<EmbeddedReminders> {
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
  });
  const scheduler = createEmbeddedScheduler({
    store,
    activities,
    log,
    clock,
    latenessMs: config.REMINDER_LATENESS_MINUTES * 60_000,
    batchSize: config.REMINDER_BATCH_SIZE,
  });
  if (config.REMINDER_SCHEDULER === 'on') scheduler.start();
  return {
    runDue: () => scheduler.runDue(),
    async close() {
      await scheduler.stop();
      await store.close();
    },
  };
}
