export { openChdbStore } from './chdb';
export { type ClickHouseOptions, openClickHouseStore } from './clickhouse';
export { ACTIVITY_TYPES, MIGRATIONS, type Migration, migrate } from './migrations';
export { connectAnalytics, openAnalytics } from './open';
export type { AnalyticsStore, QueryParams } from './types';
