import { join } from 'node:path';
import { largeBodyRoutes } from '@nudge/contracts';
import {
  authenticate,
  createHttpApp,
  createUserDirectory,
  type DocumentStore,
  type EventHandler,
  finishApp,
  type Logger,
  type ServiceEventStore,
  type TokenVerifier,
} from '@nudge/platform';
import type { Express } from 'express';
import type { AnalyticsStore } from './analytics';
import { createEmailStats } from './app/email-stats';
import { createEventLog } from './app/event-log';
import { createIntake, type Intake } from './app/intake';
import { createReportData } from './app/report-data';
import { createReports } from './app/reports';
import { createReportsProjection } from './events/reports-projection';
import { eventlogRoutes } from './http/eventlog-routes';
import { internalRoutes } from './http/internal-routes';
import { reportRoutes } from './http/report-routes';

export interface ReportingServiceDeps {
  store: DocumentStore;
  events: ServiceEventStore;
  analytics: AnalyticsStore;
  verifier: TokenVerifier;
  internalToken: string;
  log: Logger;
  /** The body limit of every route but the report routes that carry a logo (BODY_LIMIT; default 100kb). */
  bodyLimit?: string;
  /** Where the intake spool lives (DATA_DIR/reporting/spool). */
  spoolDir: string;
  /** TRUSTED_PROXIES: the gateway's addresses, whose X-Forwarded-For gives the client IP. Default loopback. */
  trustedProxies?: string[];
  clock?: () => Date;
  /** How often the spool is loaded into ClickHouse (ms, default 1,000). */
  flushMs?: number;
}

export interface ReportingService {
  app: Express;
  intake: Intake;
  /** For a per-message consumer of auth's topic: the directory that keeps roles current for authenticate(). */
  handlers: Record<string, EventHandler>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const spoolDirOf = (dataDir: string) => join(dataDir, 'reporting', 'spool');

/** The reporting service's composition: reports (document store), analytics (ClickHouse), routes. */
export function createReportingService(deps: ReportingServiceDeps): ReportingService {
  const clock = deps.clock ?? (() => new Date());
  const { store, events, analytics } = deps;
  const projection = createReportsProjection(store);
  events.register(projection);
  const directory = createUserDirectory(store);

  const data = createReportData({ analytics, clock });
  /** Drops the per-report sets no report uses any more (at start, and when a report's monitored users change). */
  const collectSets = async () => {
    try {
      const removed = await data.collectSets(await reports.monitoredLists());
      if (removed.length > 0)
        deps.log.info({ sets: removed.length }, 'reporting: removed unused report sets');
    } catch (err) {
      deps.log.warn({ err }, 'reporting: removing unused report sets failed; the next change retries');
    }
  };
  const reports = createReports({ store, events, analytics, clock, onMonitoredChanged: collectSets });
  const log = createEventLog({ analytics });
  const emailStats = createEmailStats({ analytics });
  const intake = createIntake({
    dir: deps.spoolDir,
    analytics,
    log: deps.log.child({ part: 'intake' }),
    clock,
    ...(deps.flushMs ? { flushMs: deps.flushMs } : {}),
  });

  const app = createHttpApp({
    log: deps.log,
    bodyLimit: deps.bodyLimit ?? '100kb',
    largeBodies: largeBodyRoutes('reporting'),
    ...(deps.trustedProxies ? { trustProxy: deps.trustedProxies } : {}),
  });
  app.use(authenticate({ verifier: deps.verifier, currentUser: directory.currentUser }));
  app.use(eventlogRoutes({ intake, log }));
  app.use(reportRoutes({ reports, data }));
  app.use(internalRoutes({ emailStats, store, internalToken: deps.internalToken }));
  finishApp(app, deps.log);

  return {
    app,
    intake,
    handlers: directory.handlers,
    async start() {
      await Promise.all([projection.ensureIndexes(), directory.ensureIndexes()]);
      await events.catchUp();
      await collectSets();
      await intake.start();
    },
    stop: () => intake.stop(),
  };
}
