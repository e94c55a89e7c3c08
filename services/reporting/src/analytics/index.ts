export { openChdbStore } from './chdb';
export { type ClickHouseOptions, openClickHouseStore } from './clickhouse';
export { ACTIVITY_TYPES, MIGRATIONS, type Migration, migrate, pendingMigrations } from './migrations';
export { connectAnalytics, openAnalytics, prepareSchema } from './open';
export { checkParams, forIdChunks, IDS_PER_STATEMENT, MAX_PARAMS_BYTES } from './params';
export type { AnalyticsStore, QueryParams } from './types';
