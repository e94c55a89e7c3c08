import { z } from 'zod';
import { Id, LimitQuery, PageQuery } from './common';
import { WEB_LOG_TYPES } from './event-log-types';
import type { RouteSchemas } from './route-types';
import {
  DeliveryWebhookResponse,
  SuppressionLiftRequest,
  SuppressionLiftResponse,
  SuppressionListQuery,
  SuppressionListResponse,
} from './suppressions';

// ── shared fields ───────────────────────────────────────────────────────────────────────────────────────────

/** A session token in the body (the http kit also reads `Authorization: Bearer`). */
const BodyToken = z.string({ error: 'token must be text' }).optional();

/**
 * A post id as content publishes it. Checked for shape only (content owns the ids); an unknown post is a 404
 * 'Post not found', not a 400.
 */
export const PostIdRef = z
  .string({ error: 'templateid must be a post id' })
  .trim()
  .min(1, 'templateid must be a post id')
  .max(64, 'templateid must be a post id')
  .regex(/^[A-Za-z0-9_-]+$/, 'templateid must be a post id');

export const EngagementOkResponse = z.object({ status: z.literal(true) });

// ── likes ───────────────────────────────────────────────────────────────────────────────────────────────────

export const LikeAddRequest = z.object({
  token: BodyToken,
  templateid: PostIdRef,
  status: z.boolean({ error: 'status must be true (like) or false (unlike)' }),
});
export const LikeAddResponse = z.object({
  status: z.literal(true),
  /** The like state after the call (repeating the same status changes nothing). */
  like: z.boolean(),
  /** The post's like count after the call. */
  totallikes: z.number().int().min(0),
});

export const EngagementPageQuery = z.object({ page: PageQuery, limit: LimitQuery(50, 5) });
export const LikedPostsRequest = z.object({
  token: BodyToken,
  /** A hint from the client only; permissions come from the token (DESIGN.md §6). */
  subscription: z.unknown().optional(),
});

/** A post as engagement sends it: gated by gatePost (a locked premium post has no body, `locked` and `preview`). */
export const EngagementPost = z.object({
  _id: z.string(),
  heading: z.string(),
  body: z.string().optional(),
  image: z.string(),
  type: z.number().int(),
  topic: z.string(),
  status: z.boolean(),
  createdAt: z.string(),
  locked: z.literal(true).optional(),
  preview: z.string().optional(),
  totallikes: z.number().int(),
  totalcomments: z.number().int(),
  like: z.boolean(),
});
export const LikedEntry = z.object({
  /** The like's id. */
  _id: z.string(),
  templateid: z.string(),
  /** When the post was (last) liked. */
  createdAt: z.string(),
  templateDetails: EngagementPost,
});
export const LikedPostsResponse = z.object({ status: z.literal(true), templates: z.array(LikedEntry) });

// ── comments ────────────────────────────────────────────────────────────────────────────────────────────────

export const COMMENT_MAX_LENGTH = 5000;
export const COMMENT_TOO_LONG = 'Comment must be 5000 characters or less';
export const COMMENT_EMPTY = 'Please write a comment';

/** Trimmed, non-empty, at most 5000 characters (reader.md §5, §9). Messages are the whole error text. */
export const CommentText = z
  .string({ error: COMMENT_EMPTY })
  .trim()
  .min(1, COMMENT_EMPTY)
  .max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG);

export const CommentsParams = z.object({ templateId: PostIdRef });
export const CommentsQuery = EngagementPageQuery;
/** email is always '' (kept for the contract's shape): an address never travels with a comment; see `mine`. */
export const CommentAuthor = z.object({ email: z.string(), firstname: z.string(), lastname: z.string() });
export const CommentView = z.object({
  _id: z.string(),
  templateId: z.string(),
  message: z.string(),
  createdAt: z.string(),
  /** Set once the author edited the comment. */
  updatedAt: z.string().optional(),
  /** The author as the user directory knows them now (a name change shows everywhere). */
  userDetails: CommentAuthor,
  /** True when the caller's session is the author's: the web offers edit and delete on these only. */
  mine: z.boolean(),
});
export const CommentsResponse = z.object({
  status: z.literal(true),
  comments: z.array(CommentView),
  /** Comments on the post in all. */
  total: z.number().int(),
  /** A premium post the caller may not read: its comments are gated as its body is (none are listed). */
  locked: z.literal(true).optional(),
});
export const CommentAddRequest = z.object({ token: BodyToken, templateid: PostIdRef, message: CommentText });
export const CommentEditRequest = z.object({
  token: BodyToken,
  id: z.string({ error: 'id must be a comment id' }).regex(/^[0-9a-f]{24}$/, 'id must be a comment id'),
  comment: CommentText,
});
export const CommentDeleteRequest = z.object({
  token: BodyToken,
  id: z.string({ error: 'id must be a comment id' }).regex(/^[0-9a-f]{24}$/, 'id must be a comment id'),
});
export const CommentResponse = z.object({ status: z.literal(true), comment: CommentView });

// ── reading history ─────────────────────────────────────────────────────────────────────────────────────────

export const HistoryRequest = z.object({ token: BodyToken });
export const HistoryEntryView = z.object({
  _id: z.string(),
  templateId: z.string(),
  /** 1 opened on the web, 2 arrived from an e-mail's continue-reading link; both count as reads. */
  type: z.union([z.literal(1), z.literal(2)]),
  status: z.literal(true),
  createdAt: z.string(),
});
export const HistoryDay = z.object({
  /** 'YYYY-MM-DD' in the user's time zone. */
  date: z.string(),
  read: z.boolean(),
  /** Reads that day. */
  count: z.number().int(),
});
export const HistoryResponse = z.object({
  status: z.literal(true),
  /** Every read, newest first. */
  history: z.array(HistoryEntryView),
  /** Reads in all (the 'Total read' figure and the levels input). */
  total: z.number().int(),
  /** The IANA zone the days below are computed in ('UTC' when the user has not sent one). */
  timeZone: z.string(),
  /** Today's date in that zone. */
  today: z.string(),
  /** The last 7 days, oldest first, today last (the weekly strip). */
  days: z.array(HistoryDay),
  /** Consecutive days before today with a read (reader.md §4; the page shows this plus one). */
  streak: z.number().int(),
});

// ── check-in questions (admin) ──────────────────────────────────────────────────────────────────────────────

export const CheckinScale = z.enum(['normal', 'reverse'], { error: 'Scale must be normal or reverse' });
export type CheckinScale = z.infer<typeof CheckinScale>;

const QuestionBody = z
  .string({ error: 'Please enter the question' })
  .trim()
  .min(1, 'Please enter the question')
  .max(1000, 'The question must be 1000 characters or less');
const QuestionOrder = z.coerce
  .number({ error: 'Order must be a number' })
  .int('Order must be a whole number')
  .min(0, 'Order must be 0 or more')
  .max(1_000_000, 'Order must be at most 1000000');
/** Tags are added one at a time: trimmed, blanks ignored, duplicates removed (admin.md §5). */
const QuestionTags = z
  .array(z.string({ error: 'Each tag must be text' }).max(100, 'A tag must be 100 characters or less'), {
    error: 'tags must be a list of text',
  })
  .max(50, 'A question can have at most 50 tags')
  .transform((tags) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))]);
const QuestionStatus = z.boolean({ error: 'status must be true (active) or false (paused)' });

export const CheckinQuestionAddRequest = z.object({
  token: BodyToken,
  body: QuestionBody,
  scale: CheckinScale.default('normal'),
  order: QuestionOrder.default(0),
  tags: QuestionTags.default([]),
  status: QuestionStatus.default(true),
});

/** Only the fields given change. The fields may also come wrapped in `info`, as the admin's other edit forms send. */
export const CheckinQuestionUpdateRequest = z.preprocess(
  (raw) =>
    raw && typeof raw === 'object' && 'info' in raw && raw.info && typeof raw.info === 'object'
      ? raw.info
      : raw,
  z.object({
    body: QuestionBody.optional(),
    scale: CheckinScale.optional(),
    order: QuestionOrder.optional(),
    tags: QuestionTags.optional(),
    status: QuestionStatus.optional(),
  }),
);

export const CheckinQuestion = z.object({
  _id: z.string(),
  body: z.string(),
  scale: CheckinScale,
  order: z.number().int(),
  tags: z.array(z.string()),
  status: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CheckinQuestion = z.infer<typeof CheckinQuestion>;

/** A malformed id is answered like an unknown one: 404 'Question not found'. */
export const CheckinQuestionParams = z.object({ id: Id });
export const CheckinQuestionResponse = z.object({
  status: z.literal(true),
  message: z.string().optional(),
  data: CheckinQuestion,
});
export const CheckinListQuery = z.object({ page: PageQuery, limit: LimitQuery(100, 10) });
export const CheckinListResponse = z.object({
  status: z.literal(true),
  total: z.number().int(),
  data: z.array(CheckinQuestion),
});
export const CheckinAllResponse = z.object({ status: z.literal(true), data: z.array(CheckinQuestion) });

// ── check-in answers ────────────────────────────────────────────────────────────────────────────────────────

/** Answers run 1 to 5: 1 = not at all, 5 = very much (a normal-scale question reads higher as better). */
export const CHECKIN_ANSWERS = [1, 2, 3, 4, 5] as const;
export const CHECKIN_LINK_INVALID = 'This check-in link is not valid.';
export const CHECKIN_LINK_EXPIRED = 'This check-in link has expired.';
export const CHECKIN_LINK_ENDED =
  'This check-in link no longer works because you were signed out. Please sign in again.';
export const CHECKIN_ANSWER_INVALID = 'The answer must be a whole number from 1 to 5.';

export const CheckinAnswerQuery = z.object({
  qlid: z.string({ error: CHECKIN_LINK_INVALID }).regex(/^[A-Za-z0-9_-]{16,128}$/, CHECKIN_LINK_INVALID),
  a: z
    .string({ error: CHECKIN_ANSWER_INVALID })
    .trim()
    .regex(/^[1-5]$/, CHECKIN_ANSWER_INVALID)
    .transform(Number),
});
export const CheckinAnswerResponse = z.object({
  status: z.literal(true),
  /** The user as auth returns it (auth's User). */
  user: z.object({ _id: z.string() }).loose(),
  token: z.string(),
  /** Present when the question had been answered before: nothing new was recorded. */
  alreadyAnswered: z.literal(true).optional(),
});

export const ProgressRequest = z.object({ token: BodyToken });
export const ProgressResponse = z.object({
  status: z.literal(true),
  /** 0-100: the mean of the answers' scores (see services/engagement/README.md). */
  average: z.number().int().min(0).max(100),
  message: z.string(),
  /** Answers the average is made of. */
  answers: z.number().int(),
});

/** Internal (never routed by the gateway): issue a check-in question to a user. */
export const CheckinIssueRequest = z.object({
  userId: Id,
  questionId: Id.optional(),
});
export const CheckinIssueResponse = z.object({
  status: z.literal(true),
  /** The link credential; only its SHA-256 is stored. */
  qlid: z.string(),
  expiresAt: z.string(),
  question: z.object({ _id: z.string(), body: z.string(), scale: CheckinScale }),
  links: z.array(z.object({ answer: z.number().int(), url: z.string() })),
});

// ── event intake ────────────────────────────────────────────────────────────────────────────────────────────

/** reader.md §7 and admin.md §3: the analytics events the web sends. */
export const WEB_EVENT_TYPES = WEB_LOG_TYPES;
export const WEB_EVENT_VALUE_MAX = 2000;
export const WEB_EVENT_METADATA_MAX_ENTRIES = 10;
/** The metadata of one event in all (keys and values): a URL and a few short facts. */
export const WEB_EVENT_METADATA_MAX_CHARS = 2500;

export const EventLogRequest = z.object({
  /** Optional: a valid session token attaches the user; an invalid one is ignored. */
  token: z.unknown().optional(),
  eventType: z.enum(WEB_EVENT_TYPES, { error: `eventType must be one of ${WEB_EVENT_TYPES.join(', ')}` }),
  eventValue: z
    .string({ error: 'eventValue must be text' })
    .max(WEB_EVENT_VALUE_MAX, 'eventValue must be 2000 characters or less')
    .default(''),
  metadata: z
    .record(
      z.string().max(100, 'metadata keys must be 100 characters or less'),
      z
        .string({ error: 'metadata values must be text' })
        .max(WEB_EVENT_VALUE_MAX, 'metadata values must be 2000 characters or less'),
      { error: 'metadata must be an object of text values' },
    )
    .refine(
      (m) => Object.keys(m).length <= WEB_EVENT_METADATA_MAX_ENTRIES,
      `metadata may have at most ${WEB_EVENT_METADATA_MAX_ENTRIES} entries`,
    )
    .refine(
      (m) =>
        Object.entries(m).reduce((n, [k, v]) => n + k.length + v.length, 0) <= WEB_EVENT_METADATA_MAX_CHARS,
      `metadata must be ${WEB_EVENT_METADATA_MAX_CHARS} characters or less in all`,
    )
    .default({}),
});

/** Request and response schemas of the engagement service's /api routes (likes, comments, history, check-ins, event intake). */
/** The signed token of a reminder's tracking link (open image, tracked click). */
export const TrackingParams = z.object({ token: z.string().min(10).max(4000) });
/**
 * A click link's `u`: the reader's own link token (sign-in or unsubscribe, signed by auth), put after the signed
 * destination (URL-encoded) when it ends with one. It is outside the tracking MAC: changing it only changes which
 * token our own page is given, as the page's URL itself could.
 */
export const TrackingQuery = z.object({ u: z.string().max(4000).optional() });

export const ENGAGEMENT_SCHEMAS: RouteSchemas = {
  'GET /api/admin/suppressions': { query: SuppressionListQuery, response: SuppressionListResponse },
  'POST /api/admin/suppressions/lift': { body: SuppressionLiftRequest, response: SuppressionLiftResponse },
  'POST /api/webhooks/ses': { response: DeliveryWebhookResponse },
  'POST /api/webhooks/sendgrid': { response: DeliveryWebhookResponse },
  'POST /api/webhooks/postmark': { response: DeliveryWebhookResponse },
  'GET /api/reminder/open/:token': { params: TrackingParams, produces: 'image/gif' },
  'GET /api/reminder/go/:token': { params: TrackingParams, query: TrackingQuery, produces: 'text/html' },
  'POST /api/like/getalllikedpost': {
    query: EngagementPageQuery,
    body: LikedPostsRequest,
    response: LikedPostsResponse,
  },
  'POST /api/like/add': { body: LikeAddRequest, response: LikeAddResponse },
  'GET /api/comment/comments/:templateId': {
    params: CommentsParams,
    query: CommentsQuery,
    response: CommentsResponse,
  },
  'POST /api/comment/add': { body: CommentAddRequest, response: CommentResponse },
  'POST /api/comment/edit': { body: CommentEditRequest, response: CommentResponse },
  'POST /api/comment/delete': { body: CommentDeleteRequest, response: EngagementOkResponse },
  'POST /api/history/getuserhistory': { body: HistoryRequest, response: HistoryResponse },
  'POST /api/checkin/progress': { body: ProgressRequest, response: ProgressResponse },
  'POST /api/checkin/add': { body: CheckinQuestionAddRequest, response: CheckinQuestionResponse },
  'GET /api/checkin/details/:id': { params: CheckinQuestionParams, response: CheckinQuestionResponse },
  'POST /api/checkin/update/:id': {
    params: CheckinQuestionParams,
    body: CheckinQuestionUpdateRequest,
    response: CheckinQuestionResponse,
  },
  'GET /api/checkin/checkin': { query: CheckinListQuery, response: CheckinListResponse },
  'GET /api/checkin/allcheckin': { response: CheckinAllResponse },
  'POST /api/checkin': { query: CheckinAnswerQuery, response: CheckinAnswerResponse },
};
