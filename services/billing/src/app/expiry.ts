import { decideExpiry, expectsRenewal, type SubscriptionState } from '../domain/subscription';
import type { SubscriptionRepository } from './subscription-repository';

/**
 * Premium ends at endAt without a webhook: the subscription's renewal workflow runs the expiry step when its
 * plan says so. A subscription still expected to renew, or followed by an authorised restart, gets `graceMs`
 * (RENEWAL_GRACE_HOURS) for the charge to arrive; one with renewal off ends exactly at endAt.
 */
export function createExpiry(repo: SubscriptionRepository, graceMs: number) {
  const hasAuthorisedSuccessor = async (s: SubscriptionState) =>
    (await repo.subscriptions.countDocuments({
      predecessorId: s._id,
      status: { $in: ['authenticated', 'active'] },
    })) > 0;

  /** True when the reader will be charged again at endAt: renewal on, or a restart authorised to take over. */
  const renews = async (s: SubscriptionState) => expectsRenewal(s) || (await hasAuthorisedSuccessor(s));

  const graceFor = async (s: SubscriptionState) => ((await renews(s)) ? graceMs : 0);

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
    renews,
    graceFor,
    /** Appends SubscriptionExpired to every subscription due at `now` (tests and operators; no timer calls it). */
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
