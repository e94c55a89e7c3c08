import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { canonicalTimeZone } from './days';

/** A 24-hex id (ObjectId-shaped), as every entity's _id. */
export const Id = z.string().regex(/^[0-9a-f]{24}$/, 'must be a valid id');

export const Email = z
  .string({ error: 'Please enter your email' })
  .trim()
  .min(1, 'Please enter your email')
  .max(254, 'Email is too long')
  .toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid email' }));

/** 'HH:MM' on a 15-minute step, 00:00 to 23:45 (reader.md §5). */
export const NotificationTime = z
  .string({ error: 'Notification time must be a time like 08:00' })
  .regex(
    /^([01]\d|2[0-3]):(00|15|30|45)$/,
    'Notification time must be on a 15-minute step from 00:00 to 23:45',
  );

/** India is the default country of a number written without its country code. */
export const DEFAULT_PHONE_COUNTRY = 'IN';
export const PHONE_MESSAGE =
  'Please enter a valid WhatsApp number: 10 digits for India, or + and the country code for another country';

/**
 * A WhatsApp number, stored as E.164 ('+919876543210') since Twilio needs the country code (reader.md §5
 * says 'digits only, at most 10', which is an Indian national number: such a number is read as Indian). Spaces,
 * dashes and brackets are allowed in the input; libphonenumber-js checks the number is valid for its country.
 * Empty means no number.
 */
export const Phone = z
  .string({ error: PHONE_MESSAGE })
  .trim()
  .max(32, PHONE_MESSAGE)
  .transform((value, ctx) => {
    if (value === '') return '';
    if (!/^\+?[\d\s().-]+$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: PHONE_MESSAGE });
      return z.NEVER;
    }
    const parsed = parsePhoneNumberFromString(value, DEFAULT_PHONE_COUNTRY);
    if (!parsed?.isValid()) {
      ctx.addIssue({ code: 'custom', message: PHONE_MESSAGE });
      return z.NEVER;
    }
    return parsed.number;
  });

const TIME_ZONE_MESSAGE = 'Time zone must be an IANA name like Europe/London';

/** An IANA zone, answered by its one name (canonicalTimeZone): case variants of a zone are the same zone. */
export const TimeZone = z
  .string({ error: TIME_ZONE_MESSAGE })
  .max(64)
  .transform((tz, ctx) => {
    const canonical = canonicalTimeZone(tz);
    if (canonical) return canonical;
    ctx.addIssue({ code: 'custom', message: TIME_ZONE_MESSAGE });
    return z.NEVER;
  });

export const Name = (label: string) =>
  z
    .string({ error: `Please enter ${label}` })
    .trim()
    .min(1, `Please enter ${label}`)
    .max(100, `${label} must be 100 characters or less`);

/**
 * The largest page number (or list position) a contract takes: times the largest limit (5,000) it is still a safe
 * integer, so the offset a route computes from it is exact and every store takes it. Past it, a 400.
 */
export const PAGE_MAX = 1_000_000_000;

/** A page number in a query string: 1 when absent. */
export const PageQuery = z.coerce
  .number({ error: 'page must be a number' })
  .int()
  .min(1, 'page must be 1 or more')
  .max(PAGE_MAX, `page must be ${PAGE_MAX} or less`)
  .default(1);
export const LimitQuery = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .min(1)
    .max(max, `limit must be at most ${max}`)
    .default(fallback);

/** The page sizes an admin table offers (admin.md §9's 10 is the default); a list's limit takes any of them. */
export const ADMIN_PAGE_SIZES = [10, 25, 50, 100] as const;

/** An admin list's sort direction: newest (largest) first unless asked. */
export const SortOrderQuery = z
  .enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" })
  .default('desc');

const DAY_MESSAGE = 'must be a date like 2026-11-28';
/** A day bound of an admin list's date filter ('2026-11-28'), read in UTC. */
export const DayQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_MESSAGE)
  .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), DAY_MESSAGE)
  .optional();

/** The from/to day filter of an admin list: both optional, from not after to. */
export const DayRangeQuery = { from: DayQuery, to: DayQuery };
export const dayRangeInOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
export const DAY_RANGE_ORDER = { message: 'The start date must not be after the end date', path: ['from'] };

/** The ISO instants [from 00:00, the day after to 00:00) of a day range, for a createdAt-style filter. */
export function dayRangeBounds(q: { from?: string; to?: string }): { gte?: string; lt?: string } {
  const bounds: { gte?: string; lt?: string } = {};
  if (q.from) bounds.gte = `${q.from}T00:00:00.000Z`;
  if (q.to) bounds.lt = new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000).toISOString();
  return bounds;
}

/** The contract's error body. */
export const ErrorBody = z.object({ status: z.literal(false), message: z.string() });

export const Role = z.enum(['user', 'premium', 'admin']);
export type Role = z.infer<typeof Role>;

/**
 * The Idempotency-Key header of writes that create things (a comment): a retry with the same key returns what the
 * first request made instead of making it twice.
 */
export const IdempotencyKeyHeader = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'Idempotency-Key must be 1 to 200 visible ASCII characters')
    .optional(),
});
