import type { SERVER_LOG_TYPES } from '@nudge/contracts';
import { z } from 'zod';

/** ClickHouse's DateTime64 text (UTC): 'YYYY-MM-DD hh:mm:ss.sss', accepted by every input format setting. */
export const chTime = (value: string | Date): string => {
  const d = typeof value === 'string' ? new Date(value) : value;
  const iso = Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
};

/** An `events` row (migration 1). */
export interface EventRow {
  id: string;
  type: string;
  stream: string;
  user_id: string;
  user_email: string;
  occurred_at: string;
  log_type: string;
  log_value: string;
  template_id: string;
  subject_id: string;
  question_id: string;
  send_id: string;
  channel: string;
  metadata: Record<string, string>;
  data: string;
}

/** The row type of a web event reporting's intake accepted. */
export const WEB_EVENT_TYPE = 'reporting.WebEvent';
/** The row types of web telemetry: the events the web sends (reporting's intake, and engagement's before it). */
export const WEB_ROW_TYPES = [WEB_EVENT_TYPE, 'engagement.WebEvent.v1'] as const;

/**
 * The `events` row of one web event. Every field of a web event is a column (user, e-mail, type, value, metadata,
 * time), so its `data` is `{}` (nothing reads it; the row stays small).
 */
export function webEventRow(
  id: string,
  occurredAt: string,
  user: { userId: string; email: string } | undefined,
  event: { eventType: string; eventValue?: string; metadata?: Record<string, string> },
): EventRow {
  return {
    id,
    type: WEB_EVENT_TYPE,
    stream: `webevent-${id}`,
    user_id: user?.userId ?? '',
    // Never the address: the log shows the reader's current one from the user directory, so a deleted reader's
    // address is in no analytics row (rows are not rewritten on erasure).
    user_email: '',
    occurred_at: occurredAt,
    log_type: event.eventType,
    log_value: event.eventValue ?? '',
    template_id: '',
    subject_id: '',
    question_id: '',
    send_id: '',
    channel: '',
    metadata: event.metadata ?? {},
    data: '{}',
  };
}

/** The envelope fields reporting reads; every service's events share them (platform's EventEnvelope). */
export const Envelope = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  stream: z.string().default(''),
  occurredAt: z.string(),
  actor: z.string().nullable().optional(),
  data: z.unknown(),
});
export type Envelope = z.infer<typeof Envelope>;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * What the admin's event log shows for a domain event (eventType, eventValue), or none. Web events keep the
 * browser's own type and value.
 */
const LOG_TYPES: Record<
  string,
  { logType: (typeof SERVER_LOG_TYPES)[number]; value: (d: Record<string, unknown>) => string }
> = {
  'auth.UserRegistered.v1': { logType: 'sign_up', value: () => '' },
  'auth.UserSignedIn.v1': { logType: 'sign_in', value: (d) => text(d.method) },
  'content.PostOpened.v1': { logType: 'post_read', value: (d) => text(d.templateId) },
  'engagement.LikeSet.v1': {
    logType: 'like',
    value: (d) => `${text(d.templateId)}${d.liked === false ? ' (unliked)' : ''}`,
  },
  'engagement.CommentAdded.v1': { logType: 'comment', value: (d) => text(d.templateId) },
  'engagement.CheckinAnswered.v1': {
    logType: 'checkin_answer',
    value: (d) => `${text(d.questionId)}: ${String(d.answer ?? '')}`,
  },
  'engagement.ReminderSent.v1': { logType: 'email_sent', value: (d) => text(d.templateId) },
  'engagement.ReminderOpened.v1': { logType: 'email_open', value: (d) => text(d.templateId) },
  'engagement.ReminderClicked.v1': { logType: 'email_click', value: (d) => text(d.link) },
};

const stringMap = (v: unknown): Record<string, string> => {
  if (!v || typeof v !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) if (typeof value === 'string') out[k] = value;
  return out;
};

/** One `events` row per envelope; the typed columns are read from the data of the types that have them. */
export function toEventRow(envelope: Envelope): EventRow {
  const data = (envelope.data && typeof envelope.data === 'object' ? envelope.data : {}) as Record<
    string,
    unknown
  >;
  const isWeb = (WEB_ROW_TYPES as readonly string[]).includes(envelope.type);
  const mapped = LOG_TYPES[envelope.type];
  const userId = text(data.userId) || text(envelope.actor);
  const channel = text(data.channel);
  return {
    id: envelope.id,
    type: envelope.type,
    stream: envelope.stream,
    user_id: userId,
    user_email: '',
    occurred_at: chTime(isWeb && text(data.receivedAt) ? text(data.receivedAt) : envelope.occurredAt),
    log_type: isWeb ? text(data.eventType) : (mapped?.logType ?? ''),
    log_value: isWeb ? text(data.eventValue) : (mapped?.value(data) ?? ''),
    template_id: text(data.templateId),
    subject_id: text(data.subjectId),
    question_id: text(data.questionId),
    send_id: text(data.sendId),
    channel,
    metadata: isWeb ? stringMap(data.metadata) : {},
    data: JSON.stringify(data),
  };
}
