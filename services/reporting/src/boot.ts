import {
  createConsumer,
  createTokenVerifier,
  loadInternalToken,
  loadVerifyKey,
  openServiceRuntime,
  processMetrics,
  type ServiceBootOptions,
  topicFor,
} from '@nudge/platform';
import { openAnalytics } from './analytics';
import { createBackfill } from './events/backfill';
import { createIngester, REPORTING_SETTINGS_GROUP } from './events/ingest';
import { createReportingService, spoolDirOf } from './service';

/** Builds the reporting service from configuration: what both the container (main.ts) and the standalone process run. */
export async function bootReporting(opts: ServiceBootOptions) {
  const { config, bus } = opts;
  const log = opts.log.child({ service: 'reporting' });
  const runtime = await openServiceRuntime({ service: 'reporting', config, bus, log });
  const analytics = await openAnalytics(config, log.child({ part: 'analytics' }));
  const internalToken = await loadInternalToken(config);
  const service = createReportingService({
    store: runtime.store,
    events: runtime.events,
    analytics,
    verifier: createTokenVerifier(await loadVerifyKey(config)),
    internalToken,
    log,
    spoolDir: spoolDirOf(config.DATA_DIR),
    trustedProxies: config.TRUSTED_PROXIES,
    intakeEventsPerMinute: config.INTAKE_EVENTS_PER_MINUTE,
    bodyLimit: config.BODY_LIMIT,
  });
  await service.start();
  runtime.start();
  const directory = createConsumer({
    store: runtime.store,
    bus,
    groupId: 'reporting-directory',
    topics: [topicFor('auth')],
    handlers: service.handlers,
    log: log.child({ part: 'directory' }),
  });
  await directory.start();
  // The admin's site settings (content's): the web telemetry's retention.
  const settings = createConsumer({
    store: runtime.store,
    bus,
    groupId: REPORTING_SETTINGS_GROUP,
    topics: [topicFor('content')],
    handlers: service.retention.handlers,
    idempotentTypes: Object.keys(service.retention.handlers),
    log: log.child({ part: 'settings' }),
  });
  await settings.start();
  const ingester = createIngester({ writer: service.writer, bus });
  await ingester.start();
  // serviceUrls is read at call time: in the standalone process the other services fill it as they start.
  const backfill = createBackfill({
    analytics,
    writer: service.writer,
    serviceUrls: opts.serviceUrls,
    internalToken,
    log: log.child({ part: 'backfill' }),
  });
  const unregisterSetAside = processMetrics().addSetAside('reporting', async () => {
    return (await service.setAside.counts()).sources;
  });
  const backfilled = backfill
    .run()
    .catch((err: unknown) => log.error({ err }, 'reporting: backfill stopped'));
  return {
    app: service.app,
    runtime,
    analytics,
    ready: () => runtime.store.ping(),
    // Reports need ClickHouse; intake spools and the ingester pauses while it is down.
    engines: { analytics: () => analytics.ping() },
    readinessDetail: async () => ({ setAside: await service.setAside.counts() }),
    async close() {
      unregisterSetAside();
      backfill.stop();
      await backfilled;
      await ingester.stop();
      await settings.stop();
      await directory.stop();
      await service.stop();
      await runtime.close();
      await analytics.close();
    },
  };
}
