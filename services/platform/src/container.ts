import type { ServiceName } from '@nudge/contracts';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './config';
import type { EventBus } from './events/types';
import { createLogger } from './logger';
import { startMetricsServer } from './metrics';
import {
  createMessaging,
  drainServer,
  listen,
  type Messaging,
  openDevOutbox,
  openEventBus,
  type ServiceRuntime,
} from './runtime';
import { serverTimeoutsOf } from './server-timeouts';
import { startTracing } from './tracing';

/** What every service's boot function receives and returns (the standalone process calls the same functions). */
export interface ServiceBootOptions {
  config: Config;
  bus: EventBus;
  log: Logger;
  messaging: Messaging;
  /**
   * Base URLs of the other services' internal APIs. The standalone process fills this object in as each service
   * starts, so read it at call time, not at boot.
   */
  serviceUrls: Partial<Record<ServiceName, string>>;
}
export interface BootedService {
  app: Express;
  /** The service's own store and event store (the crash suite compares read models with a rebuild through them). */
  runtime?: Pick<ServiceRuntime, 'store' | 'events'>;
  close(): Promise<void>;
  /** Resolves when the service can serve (its own document store answers); rejects otherwise. */
  ready?(): Promise<void>;
  /** Engines whose outage degrades part of the service (reporting's ClickHouse): shown by /readyz, never a 503. */
  engines?: Record<string, () => Promise<unknown>>;
  /** Facts /readyz shows under `detail` (e.g. the records a pipeline set aside); informational, never a failure. */
  readinessDetail?(): Promise<Record<string, unknown>>;
}

/**
 * GET /readyz of a service process: whether this process can serve. `required` are what every request needs (its own
 * document store): 503 naming the one that does not answer. `degraded` are engines whose outage degrades only what
 * depends on them (the bus: the outbox keeps events until it is back; reporting's ClickHouse): shown, never a 503, so
 * a blip of a shared engine does not take every pod of every service out of its load balancer at once.
 */
export function readinessHandler(
  required: Record<string, () => Promise<unknown>>,
  degraded: Record<string, () => Promise<unknown>> = {},
  detail?: () => Promise<Record<string, unknown>>,
): RequestHandler {
  const answer = async (checks: Record<string, () => Promise<unknown>>) => {
    const results: Record<string, boolean> = {};
    for (const [name, check] of Object.entries(checks)) {
      results[name] = await check().then(
        () => true,
        () => false,
      );
    }
    return results;
  };
  return async (_req, res) => {
    const checks = await answer(required);
    const engines = await answer(degraded);
    const ready = Object.values(checks).every(Boolean);
    const down = Object.keys(engines).filter((name) => !engines[name]);
    const facts = detail ? await detail().catch(() => ({ error: 'unavailable' })) : undefined;
    res.status(ready ? 200 : 503).json({
      status: ready,
      checks: { ...checks, ...engines },
      ...(down.length ? { degraded: down } : {}),
      ...(facts ? { detail: facts } : {}),
    });
  };
}

/**
 * The container composition root of one service (docker-compose, Kubernetes): configuration, bus, messaging, boot,
 * listen on SERVICE_PORT, and a clean stop on SIGTERM/SIGINT. A bad configuration stops the process with its message.
 */
export function runServiceContainer(
  service: ServiceName,
  boot: (opts: ServiceBootOptions) => Promise<BootedService>,
): void {
  const main = async () => {
    const config = loadConfig(process.env, service);
    const log = createLogger(service, config.LOG_LEVEL);
    const stopTracing = startTracing({ serviceName: service, endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
    const { bus, close: closeBus } = await openEventBus(config, log);
    const { messaging, close: closeMessaging } = await openContainerMessaging(config, log);
    const booted = await boot({ config, bus, log, messaging, serviceUrls: serviceUrlsOf(config) });
    const outer = express();
    outer.disable('x-powered-by');
    outer.get(
      '/readyz',
      readinessHandler(
        booted.ready ? { [service]: () => booted.ready?.() ?? Promise.resolve() } : {},
        { bus: () => bus.ping(), ...booted.engines },
        booted.readinessDetail,
      ),
    );
    outer.use(booted.app);
    const timeouts = serverTimeoutsOf(config);
    const metrics = await startMetricsServer(config.METRICS_PORT, '0.0.0.0', timeouts);
    const { server, url } = await listen(outer, config.SERVICE_PORT, '0.0.0.0', timeouts);
    log.info({ url, metrics: metrics.url }, `${service} service listening`);
    // Requests in flight finish first; then the service flushes its relay (and batchers), stops its consumers
    // (their offsets are committed as each handler finishes) and closes its store.
    exitOnSignal(log, config.SHUTDOWN_TIMEOUT_MS, async () => {
      await drainServer(server, config.SHUTDOWN_TIMEOUT_MS);
      await booted.close();
      await closeMessaging();
      await closeBus();
      await metrics.close();
      await stopTracing();
    });
  };
  main().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}

/**
 * The mail and WhatsApp senders of a container process. A transport left on capture (WhatsApp without Twilio
 * credentials, as the production overlay ships) keeps its messages in an outbox of its own (the document store's, or
 * files under DATA_DIR): never a crash at start.
 */
export async function openContainerMessaging(
  config: Config,
  log: Logger,
): Promise<{ messaging: Messaging; close(): Promise<void> }> {
  const capture = config.MAIL_TRANSPORT === 'capture' || config.WHATSAPP_TRANSPORT === 'capture';
  const outbox = capture ? await openDevOutbox(config) : undefined;
  if (capture) log.warn('a message transport is set to capture: those messages are stored, not sent');
  return {
    messaging: createMessaging(config, outbox?.outbox),
    close: async () => {
      await outbox?.close();
    },
  };
}

/**
 * Runs `stop` once, on the first SIGTERM or SIGINT, then exits: 0 when it finished, 1 when it failed or has not
 * finished `timeoutMs` + 10 s after the signal (Kubernetes sends SIGKILL after terminationGracePeriodSeconds anyway).
 */
export function exitOnSignal(log: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const run = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, timeoutMs }, 'shutting down: finishing requests in flight');
    setTimeout(() => {
      log.error('shutdown overran its deadline; exiting');
      process.exit(1);
    }, timeoutMs + 10_000).unref();
    stop().then(
      () => {
        log.info('shut down cleanly');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => run('SIGTERM'));
  process.once('SIGINT', () => run('SIGINT'));
}

/** The other services' base URLs from AUTH_URL, CONTENT_URL, ... (container topology). */
export function serviceUrlsOf(config: Config): Partial<Record<ServiceName, string>> {
  const urls: Partial<Record<ServiceName, string>> = {};
  const given: [ServiceName, string | undefined][] = [
    ['auth', config.AUTH_URL],
    ['content', config.CONTENT_URL],
    ['engagement', config.ENGAGEMENT_URL],
    ['billing', config.BILLING_URL],
    ['reporting', config.REPORTING_URL],
  ];
  for (const [name, url] of given) if (url) urls[name] = url;
  return urls;
}
