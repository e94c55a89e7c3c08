import {
  ConfigError,
  createHttpApp,
  createLogger,
  drainServer,
  exitOnSignal,
  finishApp,
  listen,
  loadConfig,
  openContainerMessaging,
  serverTimeoutsOf,
  startMetricsServer,
  startTracing,
} from '@nudge/platform';
import { runWorker } from './worker';

/**
 * The `workflows` container: the Temporal worker of the reminders and renewals, with a small HTTP server on
 * SERVICE_PORT for the probes (/healthz: the process answers; /readyz: the worker is running).
 */
async function main() {
  const config = loadConfig(process.env, 'workflows');
  const log = createLogger('nudge', config.LOG_LEVEL).child({ service: 'workflows' });
  const stopTracing = startTracing({
    serviceName: 'workflows',
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const { messaging, close: closeMessaging } = await openContainerMessaging(config, log);
  const worker = await runWorker(config, { messaging, log });
  const app = createHttpApp({ log, bodyLimit: '1kb' });
  app.get('/readyz', (_req, res) => {
    const running = worker.getState() === 'RUNNING';
    res.status(running ? 200 : 503).json({ status: running, worker: worker.getState() });
  });
  finishApp(app, log);
  const timeouts = serverTimeoutsOf(config);
  const { server } = await listen(app, config.SERVICE_PORT, '0.0.0.0', timeouts);
  const metrics = await startMetricsServer(config.METRICS_PORT, '0.0.0.0', timeouts);
  const running = worker.run();
  // Temporal's shutdown stops polling and lets the activities in flight finish; then the probes' servers close.
  exitOnSignal(log, config.SHUTDOWN_TIMEOUT_MS, async () => {
    worker.shutdown();
    await running;
    await drainServer(server, config.SHUTDOWN_TIMEOUT_MS);
    await closeMessaging();
    await metrics.close();
    await stopTracing();
  });
  await running;
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
