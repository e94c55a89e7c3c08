// Day boundaries of the reading history (reader.md §2 weekly strip, §4 streak): calendar days in the reader's
// IANA time zone, so a read at 20:00 UTC counts for the next day in Asia/Kolkata and the same day in New York.
// Pure: `now` is passed in.
import { addDays, dayKey, usableTimeZone } from '@nudge/contracts';

export const STRIP_DAYS = 7;
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
