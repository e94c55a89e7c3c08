import { ConfigError, createLogger, exitOnSignal, startTracing } from '@nudge/platform';
import { startStandalone } from './index';

/** `npm start`: the whole product in one process on its embedded defaults. */
startStandalone()
  .then((app) => {
    const port = new URL(app.url).port;
    console.log(`Nudge is running at http://localhost:${port} (data in ${app.config.DATA_DIR})`);
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
