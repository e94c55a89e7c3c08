export * from './analytics';
export { bootReporting } from './boot';
export {
  createReportingService,
  type ReportingService,
  type ReportingServiceDeps,
  spoolDirOf,
} from './service';
