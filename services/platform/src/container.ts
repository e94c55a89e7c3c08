import type { ServiceName } from '@nudge/contracts';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './config';
import type { EventBus } from './events/types';
import { createLogger } from './logger';
import {
  closeServer,
  createMessaging,
  listen,
  type Messaging,
  openEventBus,
  openOutboxStore,
  type ServiceRuntime,
} from './runtime';

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
  /** Resolves when the service's own engines answer (its store; reporting: ClickHouse too); rejects otherwise. */
  ready?(): Promise<void>;
}

/**
 * GET /readyz of a service process: 200 when its engines and the bus answer, 503 naming the one that does not
 * (Kubernetes' readiness probe; liveness stays on /healthz, which only says the process answers).
 */
export function readinessHandler(checks: Record<string, () => Promise<unknown>>): RequestHandler {
  return async (_req, res) => {
    const results: Record<string, boolean> = {};
    for (const [name, check] of Object.entries(checks)) {
      results[name] = await check().then(
        () => true,
        () => false,
      );
    }
    const ready = Object.values(results).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready, checks: results });
  };
}

/**
 * The container composition root of one service (docker-compose, Kubernetes): configuration, bus, messaging, boot,
 * listen on SERVICE_PORT, and a clean stop on SIGTERM/SIGINT. A bad configuration stops the process with its message.
 */
export function runServiceContainer(
  service: string,
  boot: (opts: ServiceBootOptions) => Promise<BootedService>,
): void {
  const main = async () => {
    const config = loadConfig();
    const log = createLogger(service, config.LOG_LEVEL);
    const { bus, close: closeBus } = await openEventBus(config, log);
    // A transport left on capture (say WhatsApp without Twilio credentials) keeps its messages in a store of its own.
    const capture = config.MAIL_TRANSPORT === 'capture' || config.WHATSAPP_TRANSPORT === 'capture';
    const outboxStore = capture ? await openOutboxStore(config) : undefined;
    if (capture) log.warn('a message transport is set to capture: those messages are stored, not sent');
    const booted = await boot({
      config,
      bus,
      log,
      messaging: createMessaging(config, outboxStore),
      serviceUrls: serviceUrlsOf(config),
    });
    const outer = express();
    outer.disable('x-powered-by');
    outer.get(
      '/readyz',
      readinessHandler({
        ...(booted.ready ? { [service]: () => booted.ready?.() ?? Promise.resolve() } : {}),
        bus: () => bus.ping(),
      }),
    );
    outer.use(booted.app);
    const { server, url } = await listen(outer, config.SERVICE_PORT, '0.0.0.0');
    log.info({ url }, `${service} service listening`);
    const stop = async () => {
      await closeServer(server);
      await booted.close();
      await outboxStore?.close();
      await closeBus();
      process.exit(0);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  };
  main().catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
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
