import type { SubscriptionDetailsView } from '@nudge/contracts';
import { longDate, PREMIUM_PLAN, rupees } from './plan';
import type { Status, SubscriptionState } from './subscription';

/** A reader's subscriptions, seen together: which one /upgrade shows, and whether a restart follows it. */

const endOf = (s: SubscriptionState) => (s.endAt ? Date.parse(s.endAt) : Number.NEGATIVE_INFINITY);
const createdOf = (s: SubscriptionState) => Date.parse(s.createdAt);

/**
 * The subscription the reader sees: one granting premium now (the latest end first), else the last one that was
 * ever paid, else the last one the reader authorised. A checkout never completed ('created') is not shown.
 */
export function currentSubscription(subs: SubscriptionState[]): SubscriptionState | null {
  const byEnd = (a: SubscriptionState, b: SubscriptionState) =>
    endOf(b) - endOf(a) || createdOf(b) - createdOf(a);
  const entitled = subs.filter((s) => s.entitled).sort(byEnd);
  if (entitled[0]) return entitled[0];
  const paid = subs.filter((s) => s.payments.length > 0).sort(byEnd);
  if (paid[0]) return paid[0];
  const authorised = subs
    .filter((s) => s.status !== 'created' && s.status !== 'expired' && !s.predecessorId)
    .sort((a, b) => createdOf(b) - createdOf(a));
  return authorised[0] ?? null;
}

export const isAuthorised = (s: SubscriptionState) => s.status === 'authenticated' || s.status === 'active';

/** A restart's subscription waiting to take over from `current` (created: not yet authorised by the reader). */
export function successorOf(subs: SubscriptionState[], current: SubscriptionState): SubscriptionState | null {
  const live = subs
    .filter(
      (s) =>
        s.predecessorId === current._id &&
        s.payments.length === 0 &&
        (s.status === 'created' || isAuthorised(s)),
    )
    .sort((a, b) => createdOf(b) - createdOf(a));
  return live.find(isAuthorised) ?? live[0] ?? null;
}

/** Whether renewal happens at the end of the current term: the subscription renews itself, or an authorised restart follows. */
export function renewsAtEnd(current: SubscriptionState, successor: SubscriptionState | null): boolean {
  if (successor && isAuthorised(successor)) return true;
  return !current.cancelAtCycleEnd && (current.status === 'active' || current.status === 'pending');
}

/**
 * The details /upgrade shows. The web derives auto-renewal from `status` (active or completed = Active), so the
 * status reported is what renewal will do: `cancelled` while a term runs with renewal off, `active` while an
 * authorised restart follows.
 */
export function presentDetails(
  current: SubscriptionState,
  successor: SubscriptionState | null,
): SubscriptionDetailsView {
  let status: Status = current.status;
  let cancelAtCycleEnd = current.cancelAtCycleEnd;
  if (current.entitled) {
    if (successor && isAuthorised(successor)) {
      status = 'active';
      cancelAtCycleEnd = false;
    } else if (current.cancelAtCycleEnd) {
      status = 'cancelled';
    }
  }
  return {
    subscriptionId: current._id,
    status,
    startAt: current.startAt,
    endAt: current.endAt,
    renewal: status === 'active' || status === 'completed' ? 'Active' : 'Disabled',
    cancelAtCycleEnd,
    nextSubscriptionId: successor?._id ?? null,
    plan: {
      name: PREMIUM_PLAN.name,
      months: PREMIUM_PLAN.months,
      amount: current.amount,
      currency: current.currency,
    },
  };
}

export const renewalOffMessage = (endAt: string, timeZone?: string) =>
  `You will not be charged again on ${longDate(endAt, timeZone)} because subscription renewal is disabled.`;

export const renewalOnMessage = (endAt: string, timeZone?: string) =>
  `Your subscription will renew on ${longDate(endAt, timeZone)}`;

export const cancelledNowMessage = (refunded: number | null) =>
  refunded !== null
    ? `Your subscription has been cancelled and a refund of ${rupees(refunded)} has been issued.`
    : 'Your subscription has been cancelled. Your refund could not be issued automatically; we will send it to you.';

export const restartNeedsCheckoutMessage = (endAt: string, timeZone?: string) =>
  `Please authorise the renewal: your subscription will then renew on ${longDate(endAt, timeZone)}`;

/**
 * Whether `candidate` may be the reader's live subscription when `holderId` (last claimed) is: it is already, it is a
 * restart taking over from the holder, or the holder has ended (it granted premium and no longer does). A holder
 * claimed but not yet marked entitled (its activation is being recorded) is live.
 */
export function mayHoldPremium(
  candidate: SubscriptionState,
  holderId: string | null,
  holder: SubscriptionState | null,
): boolean {
  if (holderId === null || holderId === candidate._id || candidate.predecessorId === holderId) return true;
  return holder !== null && !holder.entitled && holder.endAt !== null;
}
