import { ConfigError, createLogger, exitOnSignal, startTracing } from '@nudge/platform';
import { startStandalone } from './index';

/** `npm start`: the whole product in one process on its embedded defaults. */
startStandalone()
  .then((app) => {
    const { hostname, port } = new URL(app.url);
    const at = hostname === '127.0.0.1' || hostname === '[::1]' ? `http://localhost:${port}` : app.url;
    console.log(`Nudge is running at ${at} (data in ${app.config.DATA_DIR})`);
    if (!['127.0.0.1', '::1', 'localhost'].includes(app.config.HOST))
      console.log(
        `HOST=${app.config.HOST}: other machines can reach it too (the dev outbox ${app.config.DEV_OUTBOX_REMOTE === 'on' ? 'included: DEV_OUTBOX_REMOTE=on' : 'excepted: it answers only on this machine'})`,
      );
    // SIGTERM/SIGINT: requests in flight finish, the relays and the analytics batcher flush, consumers commit, the
    // stores close, the last spans are exported; then exit 0. (startTracing returns the running tracing's stop.)
    const stopTracing = startTracing({
      serviceName: 'nudge',
      endpoint: app.config.OTEL_EXPORTER_OTLP_ENDPOINT,
    });
    exitOnSignal(createLogger('nudge', app.config.LOG_LEVEL), app.config.SHUTDOWN_TIMEOUT_MS, async () => {
      await app.close();
      await stopTracing();
    });
  })
  .catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
