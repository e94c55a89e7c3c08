import { RENEWAL_GRACE_MS } from '../domain/plan';
import { decideExpiry, expectsRenewal, type SubscriptionState } from '../domain/subscription';
import type { SubscriptionRepository } from './subscription-repository';

/**
 * Premium ends at endAt without a webhook: the periodic check of the embedded topology (and, later, the Temporal
 * renewal workflow) calls expireDueSubscriptions(now). A subscription still expected to renew, or followed by an
 * authorised restart, gets RENEWAL_GRACE_MS for the charge to arrive; one with renewal off ends exactly at endAt.
 */
export function createExpiry(repo: SubscriptionRepository) {
  const hasAuthorisedSuccessor = async (s: SubscriptionState) =>
    (await repo.subscriptions.countDocuments({
      predecessorId: s._id,
      status: { $in: ['authenticated', 'active'] },
    })) > 0;

  const graceFor = async (s: SubscriptionState) =>
    expectsRenewal(s) || (await hasAuthorisedSuccessor(s)) ? RENEWAL_GRACE_MS : 0;

  /** Appends SubscriptionExpired when this subscription is due at `now`; true when it did. */
  async function expireIfDue(id: string, now: Date): Promise<boolean> {
    const current = await repo.get(id);
    if (!current?.entitled || !current.endAt || Date.parse(current.endAt) > now.getTime()) return false;
    const grace = await graceFor(current);
    const result = await repo.update(id, (s) => decideExpiry(s, now, grace), 'system');
    return Boolean(result?.decided.length);
  }

  return {
    expireIfDue,
    /** Appends SubscriptionExpired to every subscription due at `now`; returns their ids. */
    async expireDueSubscriptions(now: Date): Promise<string[]> {
      const due = await repo.subscriptions.find(
        { entitled: true, endAt: { $lte: now.toISOString() } },
        { sort: { endAt: 1 } },
      );
      const expired: string[] = [];
      for (const candidate of due) if (await expireIfDue(candidate._id, now)) expired.push(candidate._id);
      return expired;
    },
  };
}

export type Expiry = ReturnType<typeof createExpiry>;
