import { createLogger, loadConfig } from '@nudge/platform';
import { connectAnalytics, migrate } from './analytics';

/**
 * One-shot: applies the pending ClickHouse migrations and exits (the container topology runs it once per release,
 * before the new pods start). A migration may copy every event (`INSERT ... SELECT`): no request timeout short of it.
 */
const MIGRATION_REQUEST_TIMEOUT_MS = 6 * 60 * 60_000;
const log = createLogger('reporting.migrate');
const config = loadConfig(process.env, 'reporting-migrate');
const store = await connectAnalytics(config, log, { requestTimeoutMs: MIGRATION_REQUEST_TIMEOUT_MS });
try {
  const applied = await migrate(store);
  log.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
} finally {
  await store.close();
}
