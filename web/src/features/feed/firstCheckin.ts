// What the wellbeing box says before the first check-in answer: when the first question comes (it rides on the
// reminder e-mail), so a new reader is not asked for something they cannot answer yet. Pure: callers pass `now`.
import type { User } from '../../shared/contracts';
import { localClock } from '../../shared/timeZone';

export const CHECKIN_NEEDS_EMAIL =
  'Check-in questions come with the daily reminder e-mail: turn your e-mail reminders on to get your first one.';

/** The sentence, or null when reminders carry no check-in question (the server's message stands alone). */
export function firstCheckinHint(
  user: Pick<User, 'enableEmail' | 'notiinfo' | 'timeZone'> | null,
  emailcheckin: boolean,
  now: Date,
): string | null {
  if (!user || !emailcheckin) return null;
  if (!user.enableEmail || !user.notiinfo.active) return CHECKIN_NEEDS_EMAIL;
  const { time } = user.notiinfo;
  let day = 'tomorrow';
  try {
    if (localClock(user.timeZone || 'UTC', now) < time) day = 'today';
  } catch {
    // An unknown zone: 'tomorrow' is never too early.
  }
  return `Your first question comes with ${day}'s reminder e-mail at ${time}.`;
}
