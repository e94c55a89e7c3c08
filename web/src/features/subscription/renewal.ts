import { formatAmount } from '../payments/amount';
import { type DateValue, formatLongDate, toDate } from './dates';
import { PLAN, REFUND_WINDOW_DAYS } from './pricing';

/** reader.md §3: the subscription details of /api/payment/details (status: active, completed or others). */
export interface SubscriptionDetails {
  endAt: DateValue;
  status: string;
  /** Ours (the billing service sends them): when the subscription started, and its plan's amount in paise. */
  startAt?: DateValue;
  plan?: { months?: number; amount?: number };
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

/** When the paid term now running started: the end minus the plan's months, or the start when there is no end. */
function termStart(details: SubscriptionDetails): Date | null {
  const end = toDate(details.endAt);
  if (!end) return toDate(details.startAt);
  const start = new Date(end);
  start.setUTCMonth(start.getUTCMonth() - (details.plan?.months ?? PLAN.months));
  return start;
}

/** reader.md §9: a cancel within 7 days of the term's start is refunded and ends premium at once. */
export function inRefundWindow(details: SubscriptionDetails, now: Date): boolean {
  const start = termStart(details);
  if (!start) return false;
  const since = now.getTime() - start.getTime();
  return since >= 0 && since < REFUND_WINDOW_DAYS * 24 * 3600_000;
}

/**
 * What cancelling will do, said before the reader confirms (the confirm question stays the spec's 'Are you
 * sure?'): inside the refund window the payment is refunded and premium ends now; outside it premium stays until
 * the end date, renewal is turned off, and Restart stays on offer until then.
 */
export function cancelConsequence(details: SubscriptionDetails, now: Date, timeZone?: string): string {
  if (inRefundWindow(details, now)) {
    const amount = formatAmount(details.plan?.amount ?? PLAN.amountInRupees * 100);
    return `You are within ${REFUND_WINDOW_DAYS} days of the start, so cancelling refunds ${amount} and ends premium now.`;
  }
  const date = formatLongDate(details.endAt, timeZone);
  return `Premium stays until ${date} and renewal is turned off. You can restart it until then.`;
}

export const CANCEL_SUCCESS = 'Your subscription cancel successfully';
export const RESTART_SUCCESS = 'Your subscription restarted successfully';
export const CANCEL_CONFIRM = 'Are you sure?';
