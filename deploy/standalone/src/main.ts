import { ConfigError, createLogger, exitOnSignal } from '@nudge/platform';
import { startStandalone } from './index';

/** `npm start`: the whole product in one process on its embedded defaults. */
startStandalone()
  .then((app) => {
    const port = new URL(app.url).port;
    console.log(`Nudge is running at http://localhost:${port} (data in ${app.config.DATA_DIR})`);
    // SIGTERM/SIGINT: requests in flight finish, the relays and the analytics batcher flush, consumers commit, the
    // stores close; then exit 0.
    exitOnSignal(createLogger('nudge', app.config.LOG_LEVEL), app.config.SHUTDOWN_TIMEOUT_MS, () =>
      app.close(),
    );
  })
  .catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
