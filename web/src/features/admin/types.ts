import type {
  AdminTemplate as AdminTemplateSchema,
  CheckinQuestion as CheckinQuestionSchema,
  PromotionView as PromotionViewSchema,
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

/** admin.md §3 Report (the reporting service is built on its own branch; this is the spec's shape). */
export interface Report {
  _id: string;
  name: string;
  logo: string;
  monitoredUsers: string[];
  accessUsers: string[];
  status: boolean;
  createdAt: string;
  updatedAt: string;
}

/** admin.md §3 Event log. */
export interface EventLog {
  _id: string;
  userId: string;
  userEmail: string;
  eventType: string;
  eventValue: string;
  createdAt: string;
  metadata?: Record<string, unknown> | null;
}

export interface ListResponse<Row> {
  status: boolean;
  total: number;
  data: Row[];
}
