import { ReportingEvents, type ReportSnapshot } from '@nudge/contracts';
import type { NewEvent } from '@nudge/platform';

export const reportStream = (id: string) => `report-${id}`;
export type ReportFields = Omit<ReportSnapshot, 'reportId' | 'createdAt'>;

export const decideAddReport = (reportId: string, fields: ReportFields, createdAt: string): NewEvent[] => [
  {
    type: ReportingEvents.ReportAdded.type,
    data: { reportId, ...fields, createdAt } satisfies ReportSnapshot,
  },
];

/** Only the fields given change; an update that changes nothing records nothing. */
export function decideUpdateReport(current: ReportSnapshot, changes: Partial<ReportFields>): NewEvent[] {
  const next: ReportSnapshot = { ...current, ...changes };
  if (JSON.stringify(next) === JSON.stringify(current)) return [];
  return [{ type: ReportingEvents.ReportUpdated.type, data: next }];
}

/** Who may read a report's data: admins always; a listed access user while the report is Active. */
export function mayView(report: ReportSnapshot, viewer: { userId: string; role: string }): boolean {
  if (viewer.role === 'admin') return true;
  return report.status && report.accessUsers.includes(viewer.userId);
}
