import { ConfigError, loadConfig } from '@nudge/platform';
import { runWorker } from './worker';

/** The `workflows` container: the Temporal worker of the reminders and renewals. */
runWorker(loadConfig(process.env))
  .then((worker) => {
    process.once('SIGTERM', () => worker.shutdown());
    process.once('SIGINT', () => worker.shutdown());
    return worker.run();
  })
  .catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
