// The slot rule lives in @nudge/contracts (auth's due-readers query uses it too); the scheduler adds the walk
// over slots it missed.
import { nextSlot, slotStart } from '@nudge/contracts';

export { dueTimesAt, isDueAt, localTime, nextSlot, SLOT_MINUTES, slotStart } from '@nudge/contracts';

/** The slot starts after `after` up to and including the slot `now` falls in, oldest first. */
export function slotsBetween(after: Date | null, now: Date): Date[] {
  const last = slotStart(now);
  if (!after) return [last];
  const out: Date[] = [];
  for (let s = nextSlot(slotStart(after)); s.getTime() <= last.getTime(); s = nextSlot(s)) out.push(s);
  return out;
}
