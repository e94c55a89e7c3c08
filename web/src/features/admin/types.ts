import type {
  AdminTemplate as AdminTemplateSchema,
  CheckinQuestion as CheckinQuestionSchema,
  EventLogRow as EventLogRowSchema,
  PromotionView as PromotionViewSchema,
  Report as ReportSchema,
  SiteSettings as SiteSettingsSchema,
  TopicView as TopicViewSchema,
  TransactionRow as TransactionRowSchema,
  User as UserSchema,
} from '@nudge/contracts';
import type { z } from 'zod';

/** The admin call shapes, as types only (no zod at run time). */
export type AdminUser = z.output<typeof UserSchema>;
export type AdminTemplate = z.output<typeof AdminTemplateSchema>;
export type Topic = z.output<typeof TopicViewSchema>;
export type Promotion = z.output<typeof PromotionViewSchema>;
export type Transaction = z.output<typeof TransactionRowSchema>;
export type CheckinQuestion = z.output<typeof CheckinQuestionSchema>;
export type ServerSiteSettings = z.output<typeof SiteSettingsSchema>;

/** admin.md §3 Report, as the reporting service answers it. */
export type Report = z.output<typeof ReportSchema>;

/** admin.md §3 Event log, as the reporting service answers it (a web event without a token has no user). */
export type EventLog = z.output<typeof EventLogRowSchema>;

export interface ListResponse<Row> {
  status: boolean;
  total: number;
  data: Row[];
}
