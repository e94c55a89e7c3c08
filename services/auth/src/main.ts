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
import { bootAuth } from './boot';

/** Container composition root of the auth service (docker-compose, Kubernetes). */
async function main() {
  const config = loadConfig();
  const log = createLogger('auth', config.LOG_LEVEL);
  const { bus, close: closeBus } = await openEventBus(config, log);
  // A transport left on capture (say WhatsApp without Twilio credentials) keeps its messages in a store of its own.
  const capture = config.MAIL_TRANSPORT === 'capture' || config.WHATSAPP_TRANSPORT === 'capture';
  const outboxStore = capture ? await openOutboxStore(config) : undefined;
  if (capture) log.warn('a message transport is set to capture: those messages are stored, not sent');
  const auth = await bootAuth({ config, bus, log, messaging: createMessaging(config, outboxStore) });
  const { server, url } = await listen(auth.app, config.SERVICE_PORT, '0.0.0.0');
  log.info({ url }, 'auth service listening');
  const stop = async () => {
    await closeServer(server);
    await auth.close();
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
