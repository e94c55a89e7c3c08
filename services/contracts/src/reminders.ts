import { z } from 'zod';
import { Id, Role } from './common';
import { ReaderPost, SiteSettings } from './content';
import { CheckinScale, TrackingParams } from './engagement';

export { TrackingParams };

import { ReminderEvents, ReminderLinkKind } from './events-reminders';

// ── internal routes of the daily reminders; all batch: one call per batch of readers ──

const Instant = z.iso.datetime({ error: 'at must be an ISO instant' });
const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'localDate must be YYYY-MM-DD');
const Batch = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1, 'the batch is empty').max(1000, 'at most 1000 a batch');

/** A position in a slot's due readers (auth's cursor: the (time, zone, reader) it comes after). */
const DueCursor = z.string().max(200);

/** auth: the readers due at one slot, paged; `until` ends a page range (inclusive) planned by due-pages. */
export const DueReadersRequest = z.object({
  at: Instant,
  cursor: DueCursor.optional(),
  until: DueCursor.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

/**
 * auth: a slot's due readers cut into pages of about `size` readers each, so the pages can be sent in parallel:
 * the cursor each page ends at (inclusive; null: the last page, to the end), up to `pages` of them from `cursor`.
 */
export const DuePagesRequest = z.object({
  at: Instant,
  cursor: DueCursor.optional(),
  size: z.coerce.number().int().min(1).max(1000).default(500),
  pages: z.coerce.number().int().min(1).max(1000).default(50),
});
export const DuePagesResponse = z.object({
  status: z.literal(true),
  ends: z.array(DueCursor.nullable()),
  /** Where the next plan starts; null when these pages reach the end of the slot. */
  next: DueCursor.nullable(),
});
export const DueReader = z.object({
  userId: z.string(),
  email: z.string(),
  firstname: z.string(),
  role: Role,
  timeZone: z.string(),
  /** The reader's chosen time (HH:MM) and the local day this slot belongs to. */
  slot: z.string(),
  localDate: z.string(),
  /** The channels to send on now: e-mail when enabled and not paused; WhatsApp (the verified number) when enabled. */
  email_on: z.boolean(),
  whatsapp: z.string().nullable(),
});
export type DueReader = z.infer<typeof DueReader>;
export const DueReadersResponse = z.object({
  status: z.literal(true),
  readers: z.array(DueReader),
  /** Pass back to get the next page; null on the last page. */
  next: z.string().nullable(),
});

/** auth: sign-in and unsubscribe link tokens for a batch of users (only auth signs). */
export const MintLinksRequest = z.object({ userIds: Batch(Id) });
export const MintLinksResponse = z.object({
  status: z.literal(true),
  /** Unknown users are absent. */
  links: z.record(z.string(), z.object({ signin: z.string(), unsubscribe: z.string() })),
});

/**
 * content: today's post of each reader (gated by role), with its Active subject lines, and the settings. A batch's
 * readers share a few posts: each is answered once, and each reader by its key.
 */
export const RemindersPostsRequest = z.object({
  readers: Batch(z.object({ userId: Id, role: Role, localDate: LocalDate })),
  recommendations: z.number().int().min(0).max(5).default(3),
});
export const ReminderPost = z.object({
  /** What the e-mail shows of the post, gated: the body, or for a locked post its preview. */
  template: ReaderPost.pick({
    _id: true,
    heading: true,
    body: true,
    locked: true,
    preview: true,
    image: true,
  }),
  /** Active subject lines only (a paused one is never sent). */
  subjects: z.array(z.object({ id: z.string(), title: z.string() })),
  recommendations: z.array(z.object({ _id: z.string(), heading: z.string() })),
});
export type ReminderPost = z.infer<typeof ReminderPost>;
export const RemindersPostsResponse = z.object({
  status: z.literal(true),
  settings: SiteSettings,
  /** Each post of the batch once per gating (the post's id, `.locked` added for the locked one). */
  posts: z.record(z.string(), ReminderPost),
  /** Each reader's key in `posts`; readers without a post today are absent. */
  picks: z.record(z.string(), z.string()),
});

/** engagement: a check-in question for each user of a batch (next active question by order not sent recently). */
export const CheckinIssueBatchRequest = z.object({ userIds: Batch(Id) });
export const IssuedCheckin = z.object({
  question: z.object({ _id: z.string(), body: z.string(), scale: CheckinScale }),
  links: z.array(z.object({ answer: z.number().int(), url: z.string() })),
});
export type IssuedCheckin = z.infer<typeof IssuedCheckin>;
export const CheckinIssueBatchResponse = z.object({
  status: z.literal(true),
  /** Users absent: no active question. */
  checkins: z.record(z.string(), IssuedCheckin),
});

const SendId = z.string().regex(/^[0-9a-f]{32}$/, 'sendId must be 32 hex characters');
/** engagement: which send keys of a batch are already recorded (sent). */
export const SendsRecordedRequest = z.object({ sendIds: Batch(SendId) });
export const SendsRecordedResponse = z.object({
  status: z.literal(true),
  recorded: z.array(z.string()),
  /** Of those, the ones whose e-mail was opened. */
  opened: z.array(z.string()),
  /** Of those, the ones with at least one tracked click. */
  clicked: z.array(z.string()),
});

/**
 * engagement: claim a batch of send keys for one slot before delivering them (so no retry, catch-up or second worker
 * sends one twice). Each key is answered once: `claimed` (now this slot's, deliver it), `recorded` (sent already),
 * `inDoubt` (claimed by this slot before and not recorded: an earlier attempt may have delivered it) or `elsewhere`
 * (claimed by another slot of the same local day). WhatsApp sends beyond `whatsappDailyRecipients` distinct numbers a
 * day are answered `overLimit`.
 */
export const ClaimSendsRequest = z.object({
  slot: Instant,
  sends: Batch(
    z.object({
      sendId: SendId,
      channel: ReminderEvents.ReminderSent.data.shape.channel,
      localDate: LocalDate,
      /** The WhatsApp number (counted against the daily recipients). */
      to: z.string().max(320).optional(),
    }),
  ),
  whatsappDailyRecipients: z.coerce.number().int().min(0).optional(),
});
export const ClaimSendsResponse = z.object({
  status: z.literal(true),
  claimed: z.array(z.string()),
  recorded: z.array(z.string()),
  inDoubt: z.array(z.string()),
  elsewhere: z.array(z.string()),
  overLimit: z.array(z.string()),
});

/** engagement: give back a slot's claims of sends that did not go (refused, or too late), for its retry to take. */
export const ReleaseSendsRequest = z.object({ slot: Instant, sendIds: Batch(SendId) });
export const ReleaseSendsResponse = z.object({ status: z.literal(true), released: z.number().int() });

/** engagement: record a batch of sends (ReminderSent, expectedVersion 0: a second record of a key is refused). */
export const RecordSendsRequest = z.object({
  sends: Batch(ReminderEvents.ReminderSent.data.extend({ sendId: SendId })),
});
export const RecordSendsResponse = z.object({
  status: z.literal(true),
  recorded: z.number().int(),
  /** Send keys that were already recorded (nothing appended for them). */
  duplicates: z.number().int(),
});

/** What a tracking token (open image, click redirect) carries; signed with an HMAC (platform/tracking). */
export const TrackingClaims = z.object({
  sendId: SendId,
  userId: z.string(),
  channel: ReminderEvents.ReminderSent.data.shape.channel,
  localDate: z.string(),
  templateId: z.string(),
  subjectId: z.string().nullable(),
  /** Absent on the open image; the link kind and where to send the reader on a click. */
  link: ReminderLinkKind.optional(),
  to: z.string().optional(),
});
export type TrackingClaims = z.infer<typeof TrackingClaims>;

/** The steps of a renewal: the notice, the simulated provider's charge, the expiry. */
export const RenewalStepKind = z.enum(['notice', 'charge', 'expiry']);

/**
 * billing: what a subscription's renewal workflow waits for next: the notice 7 days before `endAt`, then
 * the expiry at `endAt` plus the grace period (none with renewal off). With the simulated Razorpay (standalone), also
 * its charge at `endAt`, where Razorpay would charge by itself. `next` null: nothing left to do (not entitled yet,
 * or ended); the workflow ends and a later change starts it again.
 */
export const RenewalPlan = z.object({
  subscriptionId: z.string().min(1).max(100),
  endAt: Instant.nullable(),
  next: z.object({ kind: RenewalStepKind, at: Instant }).nullable(),
});
export type RenewalPlan = z.infer<typeof RenewalPlan>;

/** billing: run one step of a subscription's renewal (idempotent by subscription id + endAt + kind). */
export const RenewalStepRequest = z.object({
  subscriptionId: z.string().min(1).max(100),
  kind: RenewalStepKind,
  /** The endAt the step was planned for; a step for an endAt that has moved does nothing. */
  endAt: Instant,
  at: Instant,
});
export const RenewalStepResponse = z.object({
  status: z.literal(true),
  /** What the step did: the notice sent, the renewal charged, the subscription expired, or nothing (done before, or not due). */
  outcome: z.enum(['notice-sent', 'charged', 'expired', 'nothing']),
  /** The subscription's plan after the step. */
  plan: RenewalPlan,
});

export type RenewalStep = z.infer<typeof RenewalStepRequest>;
export type RenewalStepResult = Omit<z.infer<typeof RenewalStepResponse>, 'status'>;

/** The workflow id of a subscription's renewal workflow (one per subscription). */
export const renewalWorkflowId = (subscriptionId: string) => `renewal-${subscriptionId}`;
/** The signal that hands a running renewal workflow its subscription's new plan. */
export const RENEWAL_PLAN_SIGNAL = 'renewalPlan';
