export { openChdbStore } from './chdb';
export { type ClickHouseOptions, openClickHouseStore } from './clickhouse';
export { ACTIVITY_TYPES, MIGRATIONS, type Migration, migrate, pendingMigrations } from './migrations';
export { connectAnalytics, openAnalytics, prepareSchema } from './open';
export type { AnalyticsStore, QueryParams } from './types';
