import { mkdir, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { bootAuth } from '@nudge/auth';
import { createGateway } from '@nudge/gateway';
import {
  type Config,
  closeServer,
  createLogger,
  createMessaging,
  isEmbedded,
  listen,
  loadConfig,
  openEventBus,
  openOutboxStore,
} from '@nudge/platform';

export interface Standalone {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  config: Config;
  /** Each service's own loopback URL (for tests that call /internal routes, which the gateway never routes). */
  serviceUrls: { auth: string };
  close(): Promise<void>;
}

/**
 * The single-process topology (what `npm start` runs): every built service on its own loopback port,
 * the gateway in front, the embedded adapters under DATA_DIR. `env` overrides the process environment.
 */
export async function startStandalone(env: Record<string, string | undefined> = {}): Promise<Standalone> {
  const config = loadConfig({ ...process.env, ...env });
  config.DATA_DIR = resolve(config.DATA_DIR);
  const log = createLogger('nudge', config.LOG_LEVEL);
  await mkdir(config.DATA_DIR, { recursive: true });
  // Tells `npm run admin` that the embedded files are in use (the embedded store is single-process).
  const lockFile = resolve(config.DATA_DIR, 'standalone.pid');
  await writeFile(lockFile, String(process.pid));

  const { bus, close: closeBus } = await openEventBus(config, log);
  const outboxStore = await openOutboxStore(config);
  const messaging = createMessaging(config, outboxStore);

  const auth = await bootAuth({ config, bus, log, messaging });
  const authServer = await listen(auth.app, 0);

  const gatewayApp = createGateway({
    services: { auth: authServer.url },
    webDist: resolve(config.WEB_DIST),
    ...(isEmbedded(config) && messaging.outbox ? { devOutbox: messaging.outbox } : {}),
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    readiness: async () => ({
      auth: await auth.ready().then(
        () => true,
        () => false,
      ),
      bus: await bus.ping().then(
        () => true,
        () => false,
      ),
    }),
    log: log.child({ service: 'gateway' }),
  });
  const gateway = await listen(gatewayApp, config.PORT, '0.0.0.0');

  let closed = false;
  return {
    url: gateway.url,
    config,
    serviceUrls: { auth: authServer.url },
    async close() {
      if (closed) return;
      closed = true;
      await closeServer(gateway.server);
      await closeServer(authServer.server);
      await auth.close();
      await closeBus();
      await outboxStore.close();
      await rm(lockFile, { force: true });
    },
  };
}
