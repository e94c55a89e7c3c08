import { z } from 'zod';
import {
  DAY_RANGE_ORDER,
  DayRangeQuery,
  dayRangeInOrder,
  LimitQuery,
  PageQuery,
  SortOrderQuery,
} from './common';
import { EventLogRequest } from './engagement';
import { ReportSnapshot } from './events-reporting';
import type { RouteSchemas } from './route-types';

// ── web event intake (POST /api/eventlogs) ──────────────────────────────────────────────────────────────────

/**
 * One web event: only the types the web sends (admin.md §3, WEB_EVENT_TYPES). The types the server records itself
 * (sign-in, post read, e-mail sent, opened and clicked...) come only from its own events, never from a caller.
 */
export const WebEventInput = EventLogRequest.omit({ token: true });
export type WebEventInput = z.infer<typeof WebEventInput>;
export const INTAKE_BATCH_MAX = 100;

const Batch = z
  .array(WebEventInput, { error: 'events must be a list' })
  .min(1, 'events must not be empty')
  .max(INTAKE_BATCH_MAX, `at most ${INTAKE_BATCH_MAX} events per call`);

/**
 * One event (`{ eventType, eventValue, metadata, token? }`), a list of events, or `{ token?, events: [...] }`
 * (what navigator.sendBeacon sends: it cannot set an Authorization header, so the token rides in the body).
 */
export const WebEventBeacon = z.object({ token: z.unknown().optional(), events: Batch });
export const WebEventSingle = WebEventInput.extend({ token: z.unknown().optional() });
export const WebEventIntakeRequest = z.union([WebEventBeacon, Batch, WebEventSingle]);
/** The schema of the intake body's shape (so a refusal names the broken rule, not "Invalid input"). */
export const intakeSchemaFor = (body: unknown) =>
  Array.isArray(body)
    ? Batch
    : body && typeof body === 'object' && 'events' in body
      ? WebEventBeacon
      : WebEventSingle;
export const WebEventIntakeResponse = z.object({ status: z.literal(true), accepted: z.number().int() });

// ── event log (admin) ─────────────────────────────────────────────────────────────────────────────────────

/** admin.md §7's page, and the log's optional filters: event type, the user's e-mail, the day range; time order. */
export const EventLogsQuery = z
  .object({
    page: PageQuery,
    limit: LimitQuery(100, 10),
    eventType: z.string().trim().max(100).optional(),
    email: z.string().trim().toLowerCase().max(254).optional(),
    ...DayRangeQuery,
    order: SortOrderQuery,
  })
  .refine(dayRangeInOrder, DAY_RANGE_ORDER);
export type EventLogsQuery = z.infer<typeof EventLogsQuery>;
export const EventLogRow = z.object({
  _id: z.string(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  eventType: z.string(),
  eventValue: z.string(),
  createdAt: z.string(),
  metadata: z.record(z.string(), z.string()),
});
export const EventLogsResponse = z.object({
  status: z.literal(true),
  total: z.number().int(),
  data: z.array(EventLogRow),
});

// ── reports (admin.md §3, §5) ─────────────────────────────────────────────────────────────────────────────

export const REPORT_USERS_MAX = 100_000;
export const REPORT_LOGO_MAX = 3_000_000;

/** A list of user ids, as a list or as comma-separated text: trimmed, blanks dropped, duplicates removed. */
export const UserIdList = z
  .union([z.array(z.string({ error: 'user ids must be text' })), z.string()], {
    error: 'user ids must be a list or comma-separated text',
  })
  .transform((v) => [
    ...new Set((typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter(Boolean)),
  ])
  .refine((ids) => ids.length <= REPORT_USERS_MAX, `at most ${REPORT_USERS_MAX} user ids`);

const DATA_URL_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=\s]+$/i;
export const ReportLogo = z
  .string({ error: 'Please add a logo' })
  .trim()
  .min(1, 'Please add a logo')
  .max(REPORT_LOGO_MAX, 'the logo must be 2 MB or less')
  .refine((v) => {
    if (DATA_URL_IMAGE.test(v)) return true;
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'the logo must be an uploaded image or an http(s) URL');

const ReportFields = {
  name: z
    .string({ error: 'Please enter a report name' })
    .trim()
    .min(1, 'Please enter a report name')
    .max(200, 'the report name must be 200 characters or less'),
  logo: ReportLogo,
  monitoredUsers: UserIdList,
  accessUsers: UserIdList,
  status: z.boolean({ error: 'status must be true or false' }),
};
export const ReportAddRequest = z.object({
  token: z.unknown().optional(),
  ...ReportFields,
  monitoredUsers: ReportFields.monitoredUsers.default([]),
  accessUsers: ReportFields.accessUsers.default([]),
  status: ReportFields.status.default(true),
});
/** Only the fields given change. */
export const ReportUpdateRequest = z.object({ token: z.unknown().optional(), ...ReportFields }).partial();
export const ReportIdParams = z.object({ id: z.string() });

/** A report as the API returns it: its state (events-reporting.ts) with `_id` and `updatedAt`. */
export const Report = ReportSnapshot.omit({ reportId: true }).extend({
  _id: z.string(),
  updatedAt: z.string(),
});
export type Report = z.infer<typeof Report>;
export const ReportResponse = z.object({
  status: z.literal(true),
  message: z.string().optional(),
  report: Report,
});
export const ReportListQuery = z.object({ page: PageQuery, limit: LimitQuery(100, 10) });
export const ReportListResponse = z.object({
  status: z.literal(true),
  total: z.number().int(),
  data: z.array(Report),
});

// ── report viewer data and CSV ────────────────────────────────────────────────────────────────────────────

export const ReportView = z.enum(['monthly', 'quarterly'], { error: 'view must be monthly or quarterly' });
export const ReportDataQuery = z.object({
  view: ReportView.default('monthly'),
  id: z.string({ error: 'Invalid report id' }),
  page: PageQuery,
  limit: LimitQuery(60, 6).optional(),
});
export const ReportDownloadQuery = ReportDataQuery.pick({ view: true, id: true });

export const ReportPeriodRow = z.object({
  /** '2026-11' (monthly) or '2026-Q4' (quarterly). */
  period: z.string(),
  uniquePeopleCount: z.number().int(),
  activePeopleCount: z.number().int(),
  activePeoplePercentage: z.number(),
  questionsSent: z.number().int(),
  questionsAnswered: z.number().int(),
  responseRate: z.number(),
  /** Answers per question sent in the period; a question not sent then is absent (the viewer shows NA). */
  answers: z.array(z.object({ qid: z.string(), total: z.number().int() })),
});
export type ReportPeriodRow = z.infer<typeof ReportPeriodRow>;
export const ReportQuestion = z.object({ _id: z.string(), body: z.string(), scale: z.string() });
export const ReportDataResponse = z.object({
  success: z.literal(true),
  logo: z.string(),
  data: z.array(ReportPeriodRow),
  pagination: z.object({ currentPage: z.number().int(), totalPages: z.number().int() }),
  questions: z.array(ReportQuestion),
});
export const ReportDownloadResponse = z.object({
  status: z.literal(true),
  data: z.object({
    headers: z.object({
      year: z.string(),
      period: z.string(),
      /** Column keys and labels, in order: the six metrics, then one per question (its body). */
      metrics: z.array(z.object({ key: z.string(), label: z.string() })),
    }),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
  }),
});
export type ReportDownloadResponse = z.infer<typeof ReportDownloadResponse>;

// ── e-mail analytics (internal) ───────────────────────────────────────────────────────────────────────────

const Counts = { emails_sent: z.number().int(), emails_open: z.number().int(), email_open_rate: z.number() };
export const EmailStatsRequest = z.object({
  templateIds: z.array(z.string()).max(1000, 'at most 1000 templateIds').optional(),
  userIds: z.array(z.string()).max(1000, 'at most 1000 userIds').optional(),
});
export const EmailStatsResponse = z.object({
  status: z.literal(true),
  templates: z.record(z.string(), z.object({ ...Counts, subjects: z.record(z.string(), z.object(Counts)) })),
  users: z.record(
    z.string(),
    z.object({ ...Counts, last_email_open: z.string().nullable(), last_app_login: z.string().nullable() }),
  ),
});
export type EmailStatsResponse = z.infer<typeof EmailStatsResponse>;

/** Request and response schemas of the reporting service's /api routes. */
export const REPORTING_SCHEMAS: RouteSchemas = {
  'POST /api/eventlogs': { body: WebEventIntakeRequest, response: WebEventIntakeResponse },
  'POST /api/eventlogs/logs': { query: EventLogsQuery, response: EventLogsResponse },
  'POST /api/report/add': { body: ReportAddRequest, response: ReportResponse },
  'GET /api/report/details/:id': { params: ReportIdParams, response: ReportResponse },
  'PUT /api/report/update/:id': {
    params: ReportIdParams,
    body: ReportUpdateRequest,
    response: ReportResponse,
  },
  'GET /api/report': { query: ReportListQuery, response: ReportListResponse },
  'POST /api/report/data': { query: ReportDataQuery, response: ReportDataResponse },
  'GET /api/report/download': { query: ReportDownloadQuery, response: ReportDownloadResponse },
};
