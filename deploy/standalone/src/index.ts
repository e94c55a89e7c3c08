import { mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { bootAuth } from '@nudge/auth';
import { bootBilling } from '@nudge/billing';
import { bootContent } from '@nudge/content';
import type { ServiceName } from '@nudge/contracts';
import { bootEngagement } from '@nudge/engagement';
import { createGateway } from '@nudge/gateway';
import {
  type BootedService,
  type Config,
  countDeadLetters,
  createLogger,
  createMessaging,
  createTokenVerifier,
  drainServer,
  isEmbedded,
  listen,
  loadConfig,
  loadVerifyKey,
  openDevOutbox,
  openEventBus,
  type ServiceRuntime,
  serverTimeoutsOf,
  startMetricsServer,
  startTracing,
} from '@nudge/platform';
import { type AnalyticsStore, bootReporting } from '@nudge/reporting';
import { type EmbeddedReminders, type EmbeddedWorkflows, openEmbeddedWorkflows } from '@nudge/workflows';

/**
 * The services this topology runs, in start order (engagement calls auth's internal API; reporting, last, reads
 * every other service's event history to fill a new analytics store).
 */
const BUILT = ['auth', 'content', 'engagement', 'billing', 'reporting'] as const;
type BuiltService = (typeof BUILT)[number];

export interface Standalone {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  config: Config;
  /**
   * The Prometheus scrape address (http://127.0.0.1:<METRICS_PORT>/metrics): every service's metrics, told apart by
   * their `service` label, in this process's one registry.
   */
  metricsUrl: string;
  /** Each service's own loopback URL (for tests that call /internal routes, which the gateway never routes). */
  serviceUrls: Record<BuiltService, string>;
  /** Reporting's ClickHouse (chDB), for benchmarks that seed it with ClickHouse's own generators. */
  analytics?: AnalyticsStore;
  /** Each service's own store and event store (the crash suite compares read models with a rebuild). */
  runtimes: Partial<Record<BuiltService, Pick<ServiceRuntime, 'store' | 'events'>>>;
  /**
   * The embedded scheduler: `runDue()` runs every reminder slot due by its clock now, then the renewal
   * workflows' due steps.
   */
  reminders: Pick<EmbeddedReminders, 'runDue'>;
  /** The renewal workflows' durable timers: the plan a subscription's timer holds (null: none). */
  renewals: Pick<EmbeddedWorkflows['renewals'], 'timer'>;
  close(): Promise<void>;
}

export interface StandaloneOptions {
  /** The reminder scheduler's clock (tests drive it); default the real time. */
  clock?: () => Date;
}

interface Running extends BootedService {
  ready(): Promise<void>;
}

/**
 * The single-process topology (what `npm start` runs): every built service on its own loopback port,
 * the gateway in front, the embedded adapters under DATA_DIR. `env` overrides the process environment.
 */
export async function startStandalone(
  env: Record<string, string | undefined> = {},
  options: StandaloneOptions = {},
): Promise<Standalone> {
  const config = loadConfig({ ...process.env, ...env }, 'standalone');
  config.DATA_DIR = resolve(config.DATA_DIR);
  const log = createLogger('nudge', config.LOG_LEVEL);
  // Process-wide (a second standalone in the same process, as in tests, shares it): spans carry `nudge.service`.
  startTracing({ serviceName: 'nudge', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  await mkdir(config.DATA_DIR, { recursive: true });
  // Tells `npm run admin` that the embedded files are in use (the embedded store is single-process).
  const lockFile = resolve(config.DATA_DIR, 'standalone.pid');
  await writeFile(lockFile, String(process.pid));

  const { bus, close: closeBus } = await openEventBus(config, log);
  const outboxFiles = await openDevOutbox(config);
  const messaging = createMessaging(config, outboxFiles.outbox);

  const running: { name: BuiltService; service: Running; server: Server }[] = [];
  const serviceUrls = {} as Record<BuiltService, string>;
  // Before the services: billing tells the renewal workflows (durable timers here) of every subscription change.
  const workflows = await openEmbeddedWorkflows({
    config,
    log,
    messaging,
    serviceUrls,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  let analytics: AnalyticsStore | undefined;
  const boots: Record<BuiltService, () => Promise<Running>> = {
    auth: () => bootAuth({ config, bus, log, messaging, serviceUrls }),
    content: () => bootContent({ config, bus, log, messaging, serviceUrls }),
    engagement: () => bootEngagement({ config, bus, log, messaging, serviceUrls }),
    billing: () => bootBilling({ config, bus, log, messaging, serviceUrls, renewals: workflows.renewals }),
    reporting: async () => {
      const booted = await bootReporting({ config, bus, log, messaging, serviceUrls });
      analytics = booted.analytics;
      return booted;
    },
  };
  // Each service finishes its requests in flight, then flushes its relay (and reporting its batcher), stops its
  // consumers (offsets committed) and closes its store; in reverse start order, so callers stop before callees.
  const stopServices = async () => {
    for (const { server, service } of running.reverse()) {
      await drainServer(server, config.SHUTDOWN_TIMEOUT_MS);
      await service.close();
    }
  };
  const timeouts = serverTimeoutsOf(config);
  try {
    for (const name of BUILT) {
      const service = await boots[name]();
      const { server, url } = await listen(service.app, 0, '127.0.0.1', timeouts);
      running.push({ name, service, server });
      serviceUrls[name] = url;
    }
  } catch (err) {
    await stopServices();
    await workflows.close();
    await closeBus();
    await outboxFiles.close();
    await rm(lockFile, { force: true });
    throw err;
  }

  const up = (check: () => Promise<unknown>) =>
    check().then(
      () => true,
      () => false,
    );
  const gatewayApp = createGateway({
    services: serviceUrls as Partial<Record<ServiceName, string>>,
    // One process: the gateway hands each request to the service's app directly (no loopback HTTP hop).
    apps: Object.fromEntries(running.map(({ name, service }) => [name, service.app])),
    webDist: resolve(config.WEB_DIST),
    publicUrl: config.PUBLIC_URL,
    ...(isEmbedded(config) && messaging.outbox ? { devOutbox: messaging.outbox } : {}),
    devOutboxRemote: config.DEV_OUTBOX_REMOTE === 'on',
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    maxInFlight: config.GATEWAY_MAX_IN_FLIGHT,
    maxInFlightPerClient: config.GATEWAY_MAX_IN_FLIGHT_PER_CLIENT,
    bodyLimit: config.BODY_LIMIT,
    verifier: createTokenVerifier(await loadVerifyKey(config)),
    trustProxy: config.TRUST_PROXY > 0 ? config.TRUST_PROXY : false,
    readiness: async () => {
      const checks: Record<string, boolean> = {};
      for (const { name, service } of running) checks[name] = await up(() => service.ready());
      checks.bus = await up(() => bus.ping());
      return checks;
    },
    // Dead letters wait for `npm run bus -- replay-dead-letters`, and records a service set aside for an operator:
    // shown, but the process stays ready.
    readinessDetail: async () => {
      const detail: Record<string, unknown> = { deadLetters: countDeadLetters(await bus.deadLetters()) };
      for (const { name, service } of running)
        if (service.readinessDetail) Object.assign(detail, { [name]: await service.readinessDetail() });
      return detail;
    },
    log: log.child({ service: 'gateway' }),
  });
  // Tests start on PORT=0: an unset METRICS_PORT then takes any free port too, so parallel processes never collide.
  const metricsPort =
    config.PORT === 0 && !env.METRICS_PORT && !process.env.METRICS_PORT ? 0 : config.METRICS_PORT;
  const metrics = await startMetricsServer(metricsPort, '127.0.0.1', timeouts);
  // This machine only unless HOST opens it (then the dev outbox still answers only callers on this machine).
  const gateway = await listen(gatewayApp, config.PORT, config.HOST, timeouts);
  // After the services: the reminders and renewal steps call their internal routes.
  workflows.start();
  const reminders = workflows;

  let closed = false;
  return {
    url: gateway.url,
    metricsUrl: `${metrics.url}/metrics`,
    config,
    serviceUrls,
    runtimes: Object.fromEntries(
      running.flatMap(({ name, service }) => (service.runtime ? [[name, service.runtime]] : [])),
    ),
    ...(analytics ? { analytics } : {}),
    reminders,
    renewals: { timer: (id) => workflows.renewals.timer(id) },
    async close() {
      if (closed) return;
      closed = true;
      // The gateway stops accepting and finishes what it accepted (the services still answer it); then the reminder
      // scheduler stops, then the services one by one.
      await drainServer(gateway.server, config.SHUTDOWN_TIMEOUT_MS);
      await reminders.close();
      await stopServices();
      await closeBus();
      await outboxFiles.close();
      await metrics.close();
      await rm(lockFile, { force: true });
    },
  };
}
