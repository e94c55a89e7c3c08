import { AuthEvents } from '@nudge/contracts';
import type { DecidedEvent } from '@nudge/platform';
import type { UserState } from './user';

/**
 * The notification status rules (admin.md §3), pure. `manual` is an admin's decision and no rule changes it.
 * - After `threshold` consecutive unopened reminder e-mails, an `active`/`autoactive` reader becomes `autppause`
 *   and type 1 (cold): the sender stops e-mailing them.
 * - Any later open, click or sign-in makes an `autppause` reader `autoactive` and type 0: e-mail resumes.
 */
export function decideCold(state: UserState, unopened: number, threshold: number): DecidedEvent[] {
  if (unopened < threshold) return [];
  if (state.notification_status !== 'active' && state.notification_status !== 'autoactive') return [];
  return [
    {
      type: AuthEvents.NotificationPreferencesChanged.type,
      data: { userId: state._id, notification_status: 'autppause' },
    },
    ...(state.type === 1
      ? []
      : [{ type: AuthEvents.ProfileUpdated.type, data: { userId: state._id, type: 1 } }]),
  ];
}

export function decideWarm(state: UserState): DecidedEvent[] {
  if (state.notification_status !== 'autppause') return [];
  return [
    {
      type: AuthEvents.NotificationPreferencesChanged.type,
      data: { userId: state._id, notification_status: 'autoactive' },
    },
    ...(state.type === 0
      ? []
      : [{ type: AuthEvents.ProfileUpdated.type, data: { userId: state._id, type: 0 } }]),
  ];
}
