// Reading history rules for the home feed (reader.md §2 weekly strip, Current Streak, Total read; §3 history
// entry; §4 Streak). Pure functions: no React, no DOM, no clock reads (callers pass `today`).
//
// Days are calendar days in the user's IANA time zone (the user record carries `timeZone`, 'UTC' until the
// browser sends one), so a read at 20:00 UTC lands on the next day in Asia/Kolkata and the same day in New York.

import { addDays, dayKeyToUtcDate, dayKey as sharedDayKey, usableTimeZone } from '@nudge/contracts/days';

/** One entry of POST /api/history/getuserhistory (reader.md §3). */
export interface HistoryEntry {
  /** The post read (the server keeps one entry per post per day). */
  templateId?: string;
  type: number;
  status?: boolean;
  createdAt: string | number | Date;
}

/** Types of history entry that count as a read (reader.md §3: 'type (1 or 2 count as reads)'). */
export const READ_TYPES: readonly number[] = [1, 2];

/** Number of days in the weekly strip (reader.md §9). */
export const WEEKLY_STRIP_DAYS = 7;

/** 0 = Sunday ... 6 = Saturday, as Date#getUTCDay. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Whether a history entry is a read.
 * Choice: the type must be 1 or 2 (the spec's explicit rule), and an entry whose `status` is explicitly `false`
 * is not a read, since §3 documents `status` as 'bool, read'. A missing `status` does not disqualify the entry,
 * so a history that only carries the type still counts.
 */
export function isRead(entry: HistoryEntry): boolean {
  return READ_TYPES.includes(entry.type) && entry.status !== false;
}

/**
 * Total read (home feed) and the levels' count: distinct posts read, so reopening or refreshing a post reads nothing
 * more. An entry without a post id counts on its own.
 */
export function totalRead(history: readonly HistoryEntry[]): number {
  const reads = history.filter(isRead);
  const posts = new Set(reads.map((entry) => entry.templateId).filter(Boolean));
  return posts.size + reads.filter((entry) => !entry.templateId).length;
}

// ── day keys in a time zone (the same rules as the server's: @nudge/contracts/days) ──────────────────────────

/**
 * The time zone to compute days in. Choice: an empty or unknown zone falls back to 'UTC' (the server's default
 * for a user whose browser has not sent one) rather than throwing inside a render.
 */
export const resolveTimeZone = usableTimeZone;

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/**
 * The calendar day ('YYYY-MM-DD') on which `date` falls in `timeZone`.
 * Throws a RangeError for an invalid date; an unknown zone is treated as UTC (see resolveTimeZone).
 */
export function dayKey(date: Date | string | number, timeZone: string): string {
  const instant = toDate(date);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Invalid date: ${String(date)}`);
  return sharedDayKey(instant, timeZone);
}

/** dayKey, or null when the entry's date cannot be read (such entries are skipped by the day-based rules). */
function entryDayKey(entry: HistoryEntry, timeZone: string): string | null {
  const instant = toDate(entry.createdAt);
  return Number.isNaN(instant.getTime()) ? null : dayKey(instant, timeZone);
}

/** The set of days ('YYYY-MM-DD' in `timeZone`) with at least one read. */
export function readDays(history: readonly HistoryEntry[], timeZone: string): Set<string> {
  const days = new Set<string>();
  for (const entry of history) {
    if (!isRead(entry)) continue;
    const key = entryDayKey(entry, timeZone);
    if (key) days.add(key);
  }
  return days;
}

export { addDays, dayKeyToUtcDate };

// ── weekly strip ───────────────────────────────────────────────────────────────────────────────────────────

export interface StripDay {
  /** 'YYYY-MM-DD' in the user's time zone. */
  key: string;
  /** The calendar day at 00:00 UTC; format it with timeZone 'UTC' to show this day. */
  date: Date;
  /** Day of the month, 1-31. */
  dayOfMonth: number;
  /** Short weekday in en-GB: 'Mon', 'Tue', ... */
  label: string;
  isToday: boolean;
  /** After today (only possible with a calendar week, see weeklyStrip). Never read. */
  isFuture: boolean;
  /** Before the reader signed up: neither read nor missed (shown neutral). Never read. */
  beforeStart: boolean;
  /** Today without a read yet: the day is not over, so it is neutral, not missed. */
  pending: boolean;
  /** At least one read that day: shown green; a past day without one is shown red. */
  read: boolean;
}

const weekdayLabel = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });

/**
 * The 7 days of the weekly strip.
 * Choice: by default the last 7 days ending today (today last), so the strip always shows a full week of
 * history and never shows days that have not happened. Passing `weekStartsOn` gives the calendar week
 * containing today instead (days after today are `isFuture` and not read).
 * Days before `since` (the reader's sign-up) are `beforeStart`: a new reader has missed nothing yet; today
 * without a read is `pending` (neutral) until it ends.
 */
export function weeklyStrip(
  history: readonly HistoryEntry[],
  today: Date,
  timeZone: string,
  weekStartsOn?: Weekday,
  since?: Date | string | null,
): StripDay[] {
  const todayKey = dayKey(today, timeZone);
  const sinceInstant = since ? toDate(since) : null;
  const startKey =
    sinceInstant && !Number.isNaN(sinceInstant.getTime()) ? dayKey(sinceInstant, timeZone) : null;
  const days = readDays(history, timeZone);
  const firstKey =
    weekStartsOn === undefined
      ? addDays(todayKey, -(WEEKLY_STRIP_DAYS - 1))
      : addDays(todayKey, -((dayKeyToUtcDate(todayKey).getUTCDay() - weekStartsOn + 7) % 7));
  return Array.from({ length: WEEKLY_STRIP_DAYS }, (_, offset) => {
    const key = addDays(firstKey, offset);
    const date = dayKeyToUtcDate(key);
    const isFuture = key > todayKey;
    const read = !isFuture && days.has(key);
    return {
      key,
      date,
      dayOfMonth: date.getUTCDate(),
      label: weekdayLabel.format(date),
      isToday: key === todayKey,
      isFuture,
      pending: key === todayKey && !read,
      // A read is a read even if it predates the recorded sign-up (an account moved in from elsewhere).
      beforeStart: !read && startKey !== null && key < startKey,
      read,
    };
  });
}

// ── streak ─────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * reader.md §4: the count of consecutive previous days (yesterday, the day before, ...) with a read.
 * Today is not part of the count, whether or not it has a read; the run stops at the first day without one.
 */
export function currentStreak(history: readonly HistoryEntry[], today: Date, timeZone: string): number {
  const days = readDays(history, timeZone);
  let day = addDays(dayKey(today, timeZone), -1);
  let count = 0;
  while (days.has(day)) {
    count++;
    day = addDays(day, -1);
  }
  return count;
}

/**
 * The Current Streak shown on the home feed: reader.md §4 'that count plus one' (the +1 is today, whether or not
 * today already has a read). Choice: a reader who has read nothing at all has no streak (0), so on day one the
 * streak and Total read agree (0 and 0, then 1 and 1) instead of 'Current Streak 1 day, Total read 0'.
 */
export function displayedStreak(history: readonly HistoryEntry[], today: Date, timeZone: string): number {
  if (!history.some(isRead)) return 0;
  return currentStreak(history, today, timeZone) + 1;
}
