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
import { createIntakeBudget } from './app/intake-budget';
import { createReportData } from './app/report-data';
import { createReports } from './app/reports';
import { createSetAside, type SetAside } from './app/set-aside';
import { createWebRetention, type WebRetention } from './app/web-retention';
import { createEventWriter, type EventWriter } from './events/ingest';
import { createReportsProjection } from './events/reports-projection';
import { eventlogRoutes } from './http/eventlog-routes';
import { internalRoutes } from './http/internal-routes';
import { reportRoutes } from './http/report-routes';

const DEFAULT_INTAKE_EVENTS_PER_MINUTE = 120;

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
  /** INTAKE_EVENTS_PER_MINUTE: web events one client address may send per minute without signing in (default 120). */
  intakeEventsPerMinute?: number;
}

export interface ReportingService {
  app: Express;
  intake: Intake;
  /** Inserts into `events` for every pipeline (intake, bus, backfill), setting aside what can never go in. */
  writer: EventWriter;
  /** What the pipelines set aside, counted for /readyz and the metrics. */
  setAside: SetAside;
  /** The web telemetry's retention (site setting `webeventretentiondays`): its handlers take content's events. */
  retention: WebRetention;
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
  const log = createEventLog({ analytics, directory });
  const emailStats = createEmailStats({ analytics });
  const setAside = createSetAside(store, clock);
  const retention = createWebRetention({ analytics, store, log: deps.log.child({ part: 'retention' }) });
  const writer = createEventWriter({ analytics, setAside, log: deps.log.child({ part: 'analytics' }) });
  const intake = createIntake({
    dir: deps.spoolDir,
    analytics,
    writer,
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
  const budget = createIntakeBudget(
    store,
    deps.intakeEventsPerMinute ?? DEFAULT_INTAKE_EVENTS_PER_MINUTE,
    clock,
  );
  app.use(eventlogRoutes({ intake, budget, log }));
  app.use(reportRoutes({ reports, data }));
  app.use(internalRoutes({ emailStats, store, internalToken: deps.internalToken }));
  finishApp(app, deps.log);

  return {
    app,
    intake,
    writer,
    setAside,
    retention,
    handlers: directory.handlers,
    async start() {
      await Promise.all([projection.ensureIndexes(), directory.ensureIndexes()]);
      await events.catchUp();
      await collectSets();
      await intake.start();
      // In the background: a start never waits for the analytics engine (the next start applies it again).
      retention
        .applyCurrent()
        .catch((err: unknown) =>
          deps.log.error({ err }, 'reporting: applying the web telemetry retention failed'),
        );
    },
    stop: () => intake.stop(),
  };
}
