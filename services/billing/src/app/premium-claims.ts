import { BillingEvents, eventData } from '@nudge/contracts';
import { type Decider, type EventStore, handleCommand } from '@nudge/platform';
import { mayHoldPremium } from '../domain/account';
import { decideImmediateCancel, decideLocalStatus, type SubscriptionState } from '../domain/subscription';
import type { BillingContext } from './context';

/** The stream of a reader's claims on premium: its last event names their one live subscription. */
export const customerStream = (userId: string) => `customer-${userId}`;

/**
 * One live subscription per reader, across every billing instance: a subscription's first charge claims the reader's
 * premium by an append to their customer stream at the version it read, so of two charges handled at once (two
 * checkouts paid, on two replicas) one claim is written and the other decides again and sees it. The loser's charge
 * is refunded and its subscription cancelled at the provider (refuse).
 */
export function createPremiumClaims(ctx: BillingContext, events: EventStore) {
  /** The customer stream folds to the id of the subscription holding premium (null: none ever claimed). */
  const claims: Decider<string | null, SubscriptionState> = {
    initialState: null,
    evolve: (holderId, event) =>
      event.type === BillingEvents.PremiumClaimed.type
        ? eventData(BillingEvents.PremiumClaimed, event).subscriptionId
        : holderId,
    async decide(candidate, holderId) {
      if (holderId === candidate._id) return [];
      const holder = holderId ? await ctx.repo.load(holderId) : null;
      if (!mayHoldPremium(candidate, holderId, holder)) return [];
      const data = { userId: candidate.userId, subscriptionId: candidate._id, at: ctx.clock().toISOString() };
      return [{ type: BillingEvents.PremiumClaimed.type, data }];
    },
  };

  return {
    /** True when `candidate` is (now) the reader's live subscription; false when another one is. */
    async claim(candidate: SubscriptionState): Promise<boolean> {
      const { state: holderId } = await handleCommand(
        events,
        customerStream(candidate.userId),
        claims,
        candidate,
        {
          actor: 'system',
        },
      );
      return holderId === candidate._id;
    },

    /** A second subscription was charged while the reader has a live one: cancel it and refund the charge. */
    async refuse(state: SubscriptionState, payment: { paymentId: string; amount: number }): Promise<void> {
      ctx.log.warn(
        { subscriptionId: state._id, userId: state.userId, paymentId: payment.paymentId },
        'a second subscription of a reader was charged: refunding it and cancelling it',
      );
      try {
        await ctx.provider.cancelSubscription(state._id, { atCycleEnd: false });
      } catch (err) {
        const remote = await ctx.provider.fetchSubscription(state._id).catch(() => null);
        if (!remote || !['cancelled', 'completed', 'expired'].includes(remote.status))
          ctx.log.error(
            { err, subscriptionId: state._id },
            'SECOND SUBSCRIPTION NOT CANCELLED at the provider: cancel it by hand',
          );
      }
      const refund = await ctx.refunds.refundOnce({
        ...payment,
        subscriptionId: state._id,
        userId: state.userId,
      });
      await ctx.repo.update(
        state._id,
        (s) => [
          ...decideImmediateCancel(s, ctx.clock(), refund),
          ...decideLocalStatus(s, 'cancelled', ctx.clock()),
        ],
        'system',
      );
    },
  };
}

export type PremiumClaims = ReturnType<typeof createPremiumClaims>;
