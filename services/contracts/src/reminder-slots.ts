// The reminder slot rule (DESIGN.md §8): pure, zod-free, shared by auth (which readers are due) and the scheduler.

import { dayKey, usableTimeZone } from './days';

export const SLOT_MINUTES = 15;
const SLOT_MS = SLOT_MINUTES * 60_000;

const timeFormatters = new Map<string, Intl.DateTimeFormat>();
function timeFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = timeFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
    });
    timeFormatters.set(timeZone, f);
  }
  return f;
}

/** 'HH:MM' of `instant` on the wall clock of `timeZone`. */
export function localTime(instant: Date, timeZone: string): string {
  const parts = timeFormatter(usableTimeZone(timeZone)).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

/** The slot an instant belongs to: the instant floored to the 15-minute step (UTC). */
export function slotStart(instant: Date): Date {
  return new Date(Math.floor(instant.getTime() / SLOT_MS) * SLOT_MS);
}

export const nextSlot = (slot: Date) => new Date(slot.getTime() + SLOT_MS);

/**
 * The chosen times ('HH:MM') of readers in `timeZone` who are due at the slot starting at `slot`, and the local
 * day they are due for. Normally the one time the wall clock shows. When the wall clock jumped forward across
 * the slot (DST starts: 02:00-02:45 never happen), the readers whose time was skipped are due at the first slot
 * after the gap, the same day. When it jumps back (01:00-01:45 happen twice), the times are due twice; the send
 * key (reader, local day, channel) makes the second one a no-op.
 */
export function dueTimesAt(slot: Date, timeZone: string): { localDate: string; times: string[] } {
  const zone = usableTimeZone(timeZone);
  const start = slotStart(slot);
  const prev = new Date(start.getTime() - SLOT_MS);
  const cur = localTime(start, zone);
  const localDate = dayKey(start, zone);
  const prevTime = localTime(prev, zone);
  const sameDay = dayKey(prev, zone) === localDate;
  const from = sameDay ? minutesOf(prevTime) + SLOT_MINUTES : 0;
  const to = minutesOf(cur);
  const times: string[] = [];
  for (let m = from; m <= to; m += SLOT_MINUTES) times.push(hhmm(m));
  return { localDate, times };
}

/** Whether a reader who chose `time` in `timeZone` is due at the slot starting at `slot`. */
export function isDueAt(slot: Date, timeZone: string, time: string): boolean {
  return dueTimesAt(slot, timeZone).times.includes(time);
}

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
