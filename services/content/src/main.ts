import {
  ConfigError,
  closeServer,
  createLogger,
  createMessaging,
  listen,
  loadConfig,
  openEventBus,
  openOutboxStore,
} from '@nudge/platform';
import { bootContent } from './boot';

/** Container composition root of the content service (docker-compose, Kubernetes). */
async function main() {
  const config = loadConfig();
  const log = createLogger('content', config.LOG_LEVEL);
  const { bus, close: closeBus } = await openEventBus(config, log);
  const capture = config.MAIL_TRANSPORT === 'capture' || config.WHATSAPP_TRANSPORT === 'capture';
  const outboxStore = capture ? await openOutboxStore(config) : undefined;
  const content = await bootContent({
    config,
    bus,
    log,
    messaging: createMessaging(config, outboxStore),
    serviceUrls: { ...(config.AUTH_URL ? { auth: config.AUTH_URL } : {}) },
  });
  const { server, url } = await listen(content.app, config.SERVICE_PORT, '0.0.0.0');
  log.info({ url }, 'content service listening');
  const stop = async () => {
    await closeServer(server);
    await content.close();
    await outboxStore?.close();
    await closeBus();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
