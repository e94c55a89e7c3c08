export * from './analytics';
export { bootReporting } from './boot';
export { type EventRow, webEventRow } from './domain/rows';
export {
  createReportingService,
  type ReportingService,
  type ReportingServiceDeps,
  spoolDirOf,
} from './service';
