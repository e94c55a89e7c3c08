import { ReportingEvents, ReportSnapshot } from '@nudge/contracts';
import { AppError, type NewEvent, type SnapshotCommand, snapshotDecider } from '@nudge/platform';

export const reportStream = (id: string) => `report-${id}`;
export type ReportFields = Omit<ReportSnapshot, 'reportId' | 'createdAt'>;

const decideAddReport = (reportId: string, fields: ReportFields, createdAt: string): NewEvent[] => [
  {
    type: ReportingEvents.ReportAdded.type,
    data: { reportId, ...fields, createdAt } satisfies ReportSnapshot,
  },
];

/** Only the fields given change; an update that changes nothing records nothing. */
function decideUpdateReport(current: ReportSnapshot, changes: Partial<ReportFields>): NewEvent[] {
  const next: ReportSnapshot = { ...current, ...changes };
  if (JSON.stringify(next) === JSON.stringify(current)) return [];
  return [{ type: ReportingEvents.ReportUpdated.type, data: next }];
}

export const REPORT_NOT_FOUND = 'Invalid report id';

type AddReport = { reportId: string; fields: ReportFields; createdAt: string };
type UpdateReport = { changes: Partial<ReportFields> };
export type ReportCommand = SnapshotCommand<AddReport, UpdateReport>;

/** A report's stream folds to its latest snapshot. */
export const reportDecider = snapshotDecider({
  evolve: (state: ReportSnapshot | null, event) =>
    event.type === ReportingEvents.ReportAdded.type || event.type === ReportingEvents.ReportUpdated.type
      ? ReportSnapshot.parse(event.data)
      : state,
  add: (cmd: AddReport) => decideAddReport(cmd.reportId, cmd.fields, cmd.createdAt),
  update: (state, cmd: UpdateReport) => decideUpdateReport(state, cmd.changes),
  notFound: () => new AppError('not_found', REPORT_NOT_FOUND),
});

/** Who may read a report's data: admins always; a listed access user while the report is Active. */
export function mayView(report: ReportSnapshot, viewer: { userId: string; role: string }): boolean {
  if (viewer.role === 'admin') return true;
  return report.status && report.accessUsers.includes(viewer.userId);
}
