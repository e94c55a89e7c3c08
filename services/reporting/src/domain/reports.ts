import { ReportingEvents, ReportSnapshot } from '@nudge/contracts';
import { AppError, type Decider, type NewEvent } from '@nudge/platform';

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

export type ReportCommand =
  | { kind: 'add'; reportId: string; fields: ReportFields; createdAt: string }
  | { kind: 'update'; changes: Partial<ReportFields> };

/** A report's stream folds to its latest snapshot; an update of a report never added is not found. */
export const reportDecider: Decider<ReportSnapshot | null, ReportCommand> = {
  initialState: null,
  evolve: (state, event) =>
    event.type === ReportingEvents.ReportAdded.type || event.type === ReportingEvents.ReportUpdated.type
      ? ReportSnapshot.parse(event.data)
      : state,
  decide(cmd, state) {
    if (cmd.kind === 'add') return state ? [] : decideAddReport(cmd.reportId, cmd.fields, cmd.createdAt);
    if (!state) throw new AppError('not_found', REPORT_NOT_FOUND);
    return decideUpdateReport(state, cmd.changes);
  },
};

/** Who may read a report's data: admins always; a listed access user while the report is Active. */
export function mayView(report: ReportSnapshot, viewer: { userId: string; role: string }): boolean {
  if (viewer.role === 'admin') return true;
  return report.status && report.accessUsers.includes(viewer.userId);
}
