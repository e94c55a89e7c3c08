import { createLogger, loadConfig } from '@nudge/platform';
import { connectAnalytics, migrate } from './analytics';

/** One-shot: applies the pending ClickHouse migrations and exits (the container topology runs it before start). */
const log = createLogger('reporting.migrate');
const config = loadConfig(process.env, 'reporting-migrate');
const store = await connectAnalytics(config);
try {
  const applied = await migrate(store);
  log.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
} finally {
  await store.close();
}
