// The on/paused notification toggle of the home feed (reader.md §2, §7 POST /api/user/update, §8). Pure.
import type { ProfileInfo, User } from '../../shared/contracts';

export type NotificationUser = Pick<
  User,
  'email' | 'firstname' | 'lastname' | 'notiinfo' | 'phone' | 'enableWA' | 'enableEmail' | 'topics'
>;

/** The `info` of POST /api/user/update: the user's own fields, with notiinfo.active set to `active`. */
export function notificationInfo(user: NotificationUser, active: boolean): ProfileInfo {
  return {
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    notiinfo: { time: user.notiinfo.time, active },
    phone: user.phone,
    enableWA: user.enableWA,
    enableEmail: user.enableEmail,
    topics: [...user.topics],
  };
}

/** What the toggle shows next to it. */
export const notificationStateText = (active: boolean): string => (active ? 'On' : 'Paused');

/** reader.md §8 success toast. */
export const NOTIFICATION_UPDATED = 'Updated';
