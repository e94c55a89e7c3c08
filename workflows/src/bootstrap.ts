import { ConfigError, createLogger, loadConfig, temporalConnection } from '@nudge/platform';
import { Client, Connection } from '@temporalio/client';
import { tracingClientInterceptors } from './tracing';
import { ensureSchedules } from './worker';

/**
 * One-shot (the Kubernetes setup Job): creates the reminder, renewal and refund reconciliation Schedules if they do
 * not exist, then exits.
 * Idempotent; the worker does the same at every start, so this only makes the Schedules exist before any worker runs.
 */
async function main() {
  const config = loadConfig(process.env, 'workflows-bootstrap');
  if (!config.TEMPORAL_ADDRESS) throw new ConfigError(['TEMPORAL_ADDRESS is not set: nothing to bootstrap']);
  const log = createLogger('nudge', config.LOG_LEVEL).child({ service: 'workflows-bootstrap' });
  const connection = await Connection.connect(temporalConnection(config));
  try {
    const client = new Client({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      interceptors: tracingClientInterceptors(),
    });
    await ensureSchedules(client, config, log);
  } finally {
    await connection.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
