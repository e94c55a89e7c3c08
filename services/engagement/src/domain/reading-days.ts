// Day boundaries of the reading history (reader.md §2 weekly strip, §4 streak): calendar days in the reader's
// IANA time zone, so a read at 20:00 UTC counts for the next day in Asia/Kolkata and the same day in New York.
// Pure: `now` is passed in.

export const STRIP_DAYS = 7;
export const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone to count days in: an empty or unknown zone is UTC. */
export function usableTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return DEFAULT_TIME_ZONE;
  try {
    formatterFor(timeZone);
    return timeZone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** 'YYYY-MM-DD' of the calendar day `instant` falls on in `timeZone`. */
export function dayKey(instant: Date, timeZone: string): string {
  const parts = formatterFor(usableTimeZone(timeZone)).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/** Calendar arithmetic on day keys (no instants, so a DST change never skips or repeats a day). */
export function addDays(key: string, days: number): string {
  const [year, month, day] = key.split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export interface ReadingDays {
  today: string;
  /** The last STRIP_DAYS days, oldest first, today last. */
  days: { date: string; read: boolean; count: number }[];
  /** Consecutive days before today with at least one read (today itself is not counted). */
  streak: number;
}

export function readingDays(readsAt: readonly string[], now: Date, timeZone: string): ReadingDays {
  const zone = usableTimeZone(timeZone);
  const perDay = new Map<string, number>();
  for (const at of readsAt) {
    const instant = new Date(at);
    if (Number.isNaN(instant.getTime())) continue;
    const key = dayKey(instant, zone);
    perDay.set(key, (perDay.get(key) ?? 0) + 1);
  }
  const today = dayKey(now, zone);
  const days = Array.from({ length: STRIP_DAYS }, (_, i) => {
    const date = addDays(today, i - (STRIP_DAYS - 1));
    const count = perDay.get(date) ?? 0;
    return { date, read: count > 0, count };
  });
  let streak = 0;
  for (let day = addDays(today, -1); perDay.has(day); day = addDays(day, -1)) streak++;
  return { today, days, streak };
}
