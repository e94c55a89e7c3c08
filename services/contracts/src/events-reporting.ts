import { z } from 'zod';

/** A report's whole state (admin.md §3), carried by every report event (event-carried state). */
export const ReportSnapshot = z.object({
  reportId: z.string(),
  name: z.string(),
  logo: z.string(),
  monitoredUsers: z.array(z.string()),
  accessUsers: z.array(z.string()),
  status: z.boolean(),
  createdAt: z.string(),
});
export type ReportSnapshot = z.infer<typeof ReportSnapshot>;

/** Events of the reporting service (stream `report-<id>`, topic nudge.reporting.events). */
export const ReportingEvents = {
  ReportAdded: { type: 'reporting.ReportAdded.v1', data: ReportSnapshot },
  ReportUpdated: { type: 'reporting.ReportUpdated.v1', data: ReportSnapshot },
} as const;
