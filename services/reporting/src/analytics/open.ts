import { join } from 'node:path';
import type { Config, Logger } from '@nudge/platform';
import { openChdbStore } from './chdb';
import { openClickHouseStore } from './clickhouse';
import { migrate } from './migrations';
import type { AnalyticsStore } from './types';

/** The configured analytics store (chDB under DATA_DIR/reporting/clickhouse, or the server), without migrating. */
export function connectAnalytics(config: Config, log?: Logger): Promise<AnalyticsStore> {
  if (config.ANALYTICS_STORE === 'clickhouse') {
    if (!config.CLICKHOUSE_URL) throw new Error('CLICKHOUSE_URL is required when ANALYTICS_STORE=clickhouse');
    return openClickHouseStore({
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
    });
  }
  const idleStopSeconds = config.ANALYTICS_IDLE_STOP_SECONDS;
  return openChdbStore(join(config.DATA_DIR, 'reporting', 'clickhouse'), {
    idleStopMs: idleStopSeconds * 1000,
    onIdleStop: () =>
      log?.info(
        { idleStopSeconds },
        'analytics: the engine was idle; its process stopped (the next call starts it)',
      ),
    onCrash: (info) =>
      log?.error(info, 'analytics: the engine process ended unexpectedly; starting it again'),
  });
}

/** Connects and applies the pending migrations. */
export async function openAnalytics(config: Config, log?: Logger): Promise<AnalyticsStore> {
  const store = await connectAnalytics(config, log);
  try {
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
