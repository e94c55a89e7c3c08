import { join } from 'node:path';
import type { Config } from '@nudge/platform';
import { openChdbStore } from './chdb';
import { openClickHouseStore } from './clickhouse';
import { migrate } from './migrations';
import type { AnalyticsStore } from './types';

/** The configured analytics store (chDB under DATA_DIR/reporting/clickhouse, or the server), without migrating. */
export function connectAnalytics(config: Config): Promise<AnalyticsStore> {
  if (config.ANALYTICS_STORE === 'clickhouse') {
    if (!config.CLICKHOUSE_URL) throw new Error('CLICKHOUSE_URL is required when ANALYTICS_STORE=clickhouse');
    return openClickHouseStore({
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
    });
  }
  return openChdbStore(join(config.DATA_DIR, 'reporting', 'clickhouse'));
}

/** Connects and applies the pending migrations. */
export async function openAnalytics(config: Config): Promise<AnalyticsStore> {
  const store = await connectAnalytics(config);
  try {
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
