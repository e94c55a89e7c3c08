import { ConfigError, createHttpApp, createLogger, finishApp, listen, loadConfig } from '@nudge/platform';
import { runWorker } from './worker';

/**
 * The `workflows` container: the Temporal worker of the reminders and renewals, with a small HTTP server on
 * SERVICE_PORT for the probes (/healthz: the process answers; /readyz: the worker is running).
 */
async function main() {
  const config = loadConfig(process.env);
  const log = createLogger('nudge', config.LOG_LEVEL).child({ service: 'workflows' });
  const worker = await runWorker(config, { log });
  const app = createHttpApp({ log, bodyLimit: '1kb' });
  app.get('/readyz', (_req, res) => {
    const running = worker.getState() === 'RUNNING';
    res.status(running ? 200 : 503).json({ status: running, worker: worker.getState() });
  });
  finishApp(app, log);
  const { server } = await listen(app, config.SERVICE_PORT, '0.0.0.0');
  const stop = () => worker.shutdown();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await worker.run();
  server.close();
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
