import { ConfigError } from '@nudge/platform';
import { startStandalone } from './index';

/** `npm start`: the whole product in one process on its embedded defaults. */
startStandalone()
  .then((app) => {
    const port = new URL(app.url).port;
    console.log(`Nudge is running at http://localhost:${port} (data in ${app.config.DATA_DIR})`);
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      app.close().then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  })
  .catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
