import { join } from 'node:path';
import type { Config, Logger } from '@nudge/platform';
import { openChdbStore } from './chdb';
import { openClickHouseStore } from './clickhouse';
import { migrate, pendingMigrations } from './migrations';
import type { AnalyticsStore } from './types';

/** The configured analytics store (chDB under DATA_DIR/reporting/clickhouse, or the server), without migrating. */
export function connectAnalytics(
  config: Config,
  log?: Logger,
  opts: { requestTimeoutMs?: number } = {},
): Promise<AnalyticsStore> {
  if (config.ANALYTICS_STORE === 'clickhouse') {
    if (!config.CLICKHOUSE_URL) throw new Error('CLICKHOUSE_URL is required when ANALYTICS_STORE=clickhouse');
    return openClickHouseStore({
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
      ...opts,
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

/**
 * Connects and brings the schema to this release: applies the pending migrations, or, against a ClickHouse server
 * whose migrations are the migration step's (ANALYTICS_MIGRATE_AT_START=off), refuses a schema that is behind. Many
 * replicas starting together never run the same migration at once, and a long `INSERT ... SELECT` of a migration never
 * runs under a request's timeout in a process a startup probe is watching.
 */
export async function openAnalytics(config: Config, log?: Logger): Promise<AnalyticsStore> {
  const store = await connectAnalytics(config, log);
  try {
    await prepareSchema(store, config);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** What reporting's start does to the schema: applies the pending migrations, or refuses to run behind them. */
export async function prepareSchema(
  store: AnalyticsStore,
  config: Pick<Config, 'ANALYTICS_MIGRATE_AT_START'>,
): Promise<void> {
  if (store.kind === 'clickhouse' && config.ANALYTICS_MIGRATE_AT_START === 'off') await refuseBehind(store);
  else await migrate(store);
}

/** Throws, naming them, when migrations of this release are not applied yet. */
export async function refuseBehind(store: AnalyticsStore): Promise<void> {
  const pending = await pendingMigrations(store);
  if (pending.length > 0)
    throw new Error(
      `the ClickHouse schema is behind this release: migration${pending.length > 1 ? 's' : ''} ${pending
        .map((m) => `${m.version} (${m.name})`)
        .join(
          ', ',
        )} not applied. The migration step applies them (services/reporting/src/migrate.ts: the setup Job, docker-compose's reporting-migrate); ANALYTICS_MIGRATE_AT_START=on has reporting apply them itself`,
    );
}
