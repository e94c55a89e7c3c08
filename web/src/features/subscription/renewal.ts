import { type DateValue, formatLongDate, toDate } from './dates';

/** reader.md §3: the subscription details of /api/payment/details (status: active, completed or others). */
export interface SubscriptionDetails {
  endAt: DateValue;
  status: string;
}

export type RenewalState = 'Active' | 'Disabled';
export type SubscriptionState = 'Active' | 'Inactive';

/** reader.md §4: auto-renewal is Active when the status is active or completed, otherwise Disabled. */
export const renewalState = (status: string): RenewalState =>
  status === 'active' || status === 'completed' ? 'Active' : 'Disabled';

/** reader.md §4: the subscription is Active while now is before endAt. */
export function subscriptionState(endAt: DateValue, now: Date): SubscriptionState {
  const end = toDate(endAt);
  return end && now.getTime() < end.getTime() ? 'Active' : 'Inactive';
}

/**
 * reader.md §4 texts: renewal on 'Your subscription will renew on {date}'; off 'You will not be charged again on
 * {date} because subscription renewal is disabled.'. Ours: once endAt has passed neither is true, so the page says
 * when it ended; without a readable endAt there is no date to give, so no text.
 */
export function renewalText(details: SubscriptionDetails, now: Date, timeZone?: string): string {
  const date = formatLongDate(details.endAt, timeZone);
  if (!date) return '';
  if (subscriptionState(details.endAt, now) === 'Inactive') return `Your subscription ended on ${date}.`;
  return renewalState(details.status) === 'Active'
    ? `Your subscription will renew on ${date}`
    : `You will not be charged again on ${date} because subscription renewal is disabled.`;
}

/** Cancel turns renewal off, Restart turns it back on; both only while the subscription is still running. */
export function managementActions(
  details: SubscriptionDetails,
  now: Date,
): { cancel: boolean; restart: boolean } {
  const running = subscriptionState(details.endAt, now) === 'Active';
  const renewing = renewalState(details.status) === 'Active';
  return { cancel: running && renewing, restart: running && !renewing };
}

export const CANCEL_SUCCESS = 'Your subscription cancel successfully';
export const RESTART_SUCCESS = 'Your subscription restarted successfully';
export const CANCEL_CONFIRM = 'Are you sure?';
