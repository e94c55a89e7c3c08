// Words for the weekly strip, so a day's state is not told by colour alone (reader.md §2 weekly strip). Pure.
import type { StripDay } from '../progress/history';

const longDay = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});

export const READ_TEXT = 'read';
export const NOT_READ_TEXT = 'not read';
export const BEFORE_START_TEXT = 'before you joined';
export const PENDING_TEXT = 'not read yet';

type DayState = Pick<StripDay, 'read'> & { beforeStart?: boolean; pending?: boolean };

/** The state of a day in words: 'read' (green), 'not read' (red), 'not read yet' or 'before you joined' (neutral). */
export const dayStateText = (day: DayState): string =>
  day.read ? READ_TEXT : day.pending ? PENDING_TEXT : day.beforeStart ? BEFORE_START_TEXT : NOT_READ_TEXT;

/** What a screen reader hears for a day: 'Monday 3 March, today: read'. */
export function dayDescription(day: Pick<StripDay, 'date' | 'isToday'> & DayState): string {
  return `${longDay.format(day.date)}${day.isToday ? ', today' : ''}: ${dayStateText(day)}`;
}

/** 'day' or 'days' after a count. */
export const dayUnit = (count: number): string => (count === 1 ? 'day' : 'days');

/** 'N day(s)' for the streak. */
export const daysText = (count: number): string => `${count} ${dayUnit(count)}`;
