import { z } from 'zod';
import {
  DAY_RANGE_ORDER,
  DayRangeQuery,
  dayRangeInOrder,
  Email,
  Id,
  LimitQuery,
  Name,
  NotificationTime,
  PAGE_MAX,
  PageQuery,
  PHONE_MESSAGE,
  Phone,
  Role,
  SortOrderQuery,
  TimeZone,
} from './common';
import { AgeConfirmed } from './privacy';

export const NotiInfo = z.object({
  time: NotificationTime,
  active: z.boolean({ error: 'notiinfo.active must be true or false' }).default(true),
});

/** admin.md §3: notification status options (spelling as in the spec). */
export const NotificationStatus = z.enum(['active', 'autoactive', 'autppause', 'manual']);

/** The user as every auth response returns it. */
export const User = z.object({
  _id: Id,
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  phone: z.string(),
  enableWA: z.boolean(),
  enableEmail: z.boolean(),
  notiinfo: z.object({ time: z.string(), active: z.boolean() }),
  topics: z.array(z.string()),
  verified: z.boolean(),
  role: Role,
  /** 0 normal, 1 cold (admin.md §3). */
  type: z.union([z.literal(0), z.literal(1)]),
  notification_time: z.string(),
  notification_status: NotificationStatus,
  notification_type: z.enum(['email', 'whatsapp', 'both', 'none']),
  category: z.string(),
  timeZone: z.string(),
  emails_sent: z.number(),
  emails_open: z.number(),
  email_open_rate: z.number(),
  last_email_open: z.string().nullable(),
  last_app_login: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof User>;

const Token = z.string({ error: 'Please sign in to continue' }).min(1, 'Please sign in to continue');
const TopicIds = z.array(Id, { error: 'topics must be a list of topic ids' }).max(500);

export const AuthRequest = z.object({ email: Email });
export const AuthResponse = z.object({ status: z.literal(true), message: z.string() });

export const VerifyRequest = z.object({
  email: Email,
  otp: z
    .union([z.string(), z.number()], { error: 'Please enter the code from your e-mail' })
    .transform(String)
    .pipe(z.string().regex(/^\d{6}$/, 'The code is the 6 digits from your e-mail')),
  /** The browser's IANA time zone, so reminders go out at local time. */
  timeZone: TimeZone.optional(),
});
export const SessionResponse = z.object({ status: z.literal(true), user: User, token: z.string() });

export const ProfileInfo = z.object({
  email: Email.optional(),
  firstname: Name('firstname').optional(),
  lastname: Name('lastname').optional(),
  notiinfo: NotiInfo.optional(),
  phone: Phone.optional(),
  enableWA: z.boolean({ error: 'enableWA must be true or false' }).optional(),
  enableEmail: z.boolean({ error: 'enableEmail must be true or false' }).optional(),
  topics: TopicIds.optional(),
  timeZone: TimeZone.optional(),
  /** Sign-up: the reader confirms they are at least 16 (reader.md §9); needed to complete a new profile. */
  ageConfirmed: AgeConfirmed.optional(),
});
export const UpdateRequest = z.object({
  email: Email,
  token: Token.optional(),
  info: ProfileInfo,
});
export const UserResponse = z.object({ status: z.literal(true), user: User });

/** reader.md §4: 1 notSent -> request a code; 2 sent -> submit it; 4 complete. 3 (resend) is defined but unused. */
export const OtpStage = z.coerce.number().pipe(
  z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], {
    error: 'stage must be 1, 2, 3 or 4',
  }),
);
export const OtpTransactionRequest = z.object({
  email: Email,
  token: Token.optional(),
  phone: Phone.refine((p) => p.length > 0, PHONE_MESSAGE),
  stage: OtpStage,
  otp: z.union([z.string(), z.number()]).transform(String).default('0'),
});
export const MessageResponse = z.object({ status: z.boolean(), message: z.string() });

export const UpdateNameRequest = z.object({
  token: Token.optional(),
  firstname: Name('firstname'),
  lastname: z.string({ error: 'Please enter firstname' }).trim().min(1, 'Please enter firstname').max(100),
});

export const IsAuthRequest = z.object({ token: Token.optional() });
/** POST /api/user/logout: the token to end, in the body or as `Authorization: Bearer`. */
export const LogoutRequest = z.object({ token: Token.optional() });
export const IsAuthResponse = z.object({ status: z.literal(true), user: User, token: z.string().optional() });

export const LinkTokenParams = z.object({ uid: z.string().min(1).max(4096) });
export const UnsubscribeParams = z.object({ id: z.string().min(1).max(4096) });
/** The link-authorised pages see only what they show. */
export const NotificationDetails = z.object({
  email: z.string(),
  notiinfo: z.object({ time: z.string(), active: z.boolean() }),
});
export const NotificationDetailsResponse = z.object({ status: z.literal(true), user: NotificationDetails });

// Admin
/** The Users table's sortable columns (the e-mail figures are reporting's, so not sortable here). */
export const USER_SORTS = ['createdAt', 'email', 'firstname', 'lastname', 'last_app_login'] as const;

/**
 * admin.md §7's page and e-mail search, and the table's optional filters and sort: `q` matches e-mail or name, the
 * others match exactly; from/to bound the sign-up day.
 */
export const GetAllUsersQuery = z
  .object({
    page: PageQuery,
    limit: LimitQuery(100, 10),
    email: z.string().trim().max(254).optional(),
    q: z.string().trim().max(254).optional(),
    role: Role.optional(),
    topic: Id.optional(),
    status: NotificationStatus.optional(),
    type: z.enum(['0', '1'], { error: 'type must be 0 (normal) or 1 (cold)' }).optional(),
    timeZone: TimeZone.optional(),
    ...DayRangeQuery,
    sort: z.enum(USER_SORTS, { error: `sort must be one of ${USER_SORTS.join(', ')}` }).default('createdAt'),
    order: SortOrderQuery,
  })
  .refine(dayRangeInOrder, DAY_RANGE_ORDER);
export type GetAllUsersQuery = z.infer<typeof GetAllUsersQuery>;
export const UserListResponse = z.object({ status: z.literal(true), total: z.number(), data: z.array(User) });

export const RangeExportRequest = z.object({
  from: z.coerce
    .number({ error: 'From must be a number' })
    .int()
    .min(1, 'From must be 1 or more')
    .max(PAGE_MAX, `From must be ${PAGE_MAX} or less`)
    .default(1),
  to: z.union([z.string(), z.number()]).optional(),
});

export const AdminAddUsersRequest = z.object({
  info: z.object({
    emails: z.union([z.string(), z.array(z.string())], { error: 'Please enter at least one email' }),
    notiinfo: z
      .object({ time: NotificationTime.default('08:00'), active: z.boolean().default(true) })
      .default({ time: '08:00', active: true }),
    topics: TopicIds.default([]),
    type: z.coerce
      .number()
      .pipe(z.union([z.literal(0), z.literal(1)], { error: 'type must be 0 (normal) or 1 (cold)' }))
      .default(0),
  }),
});
export const AdminAddUsersResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  added: z.array(z.string()),
  skipped: z.array(z.string()),
});

export const IdParams = z.object({ id: Id });
export const AdminUpdateUserRequest = z.object({
  info: ProfileInfo.omit({ email: true }).extend({
    role: Role.optional(),
    type: z.coerce
      .number()
      .pipe(z.union([z.literal(0), z.literal(1)], { error: 'type must be 0 (normal) or 1 (cold)' }))
      .optional(),
    notification_status: NotificationStatus.optional(),
    category: z.string().trim().max(100).optional(),
    verified: z.boolean().optional(),
  }),
});

// Internal calls (never routed by the gateway)
export const MintRequest = z.object({ userId: Id });
/**
 * A session for a user who proved themselves with an e-mailed link (a check-in answer): `linkIssuedAt` is when that
 * link was sent, so a link from before the user's sessions were ended (a sign-out, an admin) is refused (410).
 */
export const LinkSessionRequest = MintRequest.extend({ linkIssuedAt: z.iso.datetime() });
export const MintLinkResponse = z.object({
  status: z.literal(true),
  token: z.string(),
  url: z.string().optional(),
});
