import type { SubscriptionDetailsView } from '@nudge/contracts';
import { badRequest, conflict, unavailable } from '@nudge/platform';
import {
  cancelledNowMessage,
  currentSubscription,
  presentDetails,
  renewalOffMessage,
  renewalOnMessage,
  renewsAtEnd,
  restartNeedsCheckoutMessage,
  successorOf,
} from '../domain/account';
import {
  decideCheckoutConfirmed,
  decideImmediateCancel,
  decideLocalStatus,
  decideRenewalOff,
  refundablePayment,
  type SubscriptionState,
} from '../domain/subscription';
import { ProviderError } from '../infra/payment-provider';
import { signatureMatches } from '../infra/signatures';
import { type CheckoutTicket, type Customer, openSubscription, ticketFor } from './checkout';
import type { BillingContext } from './context';

export interface Change {
  details: SubscriptionDetailsView | null;
  message: string;
  /** A restart that needs the reader to authorise a new subscription at checkout. */
  checkout?: CheckoutTicket;
}

/** payment/details, cancel, restart and confirm: the reader's subscription and its renewal. */
export function createRenewal(ctx: BillingContext & { keySecret: string }) {
  const view = async (userId: string) => {
    const subs = await ctx.repo.byUser(userId);
    const current = currentSubscription(subs);
    const successor = current ? successorOf(subs, current) : null;
    return { current, successor, details: current ? presentDetails(current, successor) : null };
  };

  const details = async (userId: string) => (await view(userId)).details;

  /** Cancels at the provider; a subscription the provider already ended counts as cancelled. */
  const cancelAtProvider = async (state: SubscriptionState, atCycleEnd: boolean) => {
    try {
      await ctx.provider.cancelSubscription(state._id, { atCycleEnd });
    } catch (err) {
      const remote = await ctx.provider.fetchSubscription(state._id).catch(() => null);
      if (remote && ['cancelled', 'completed', 'expired'].includes(remote.status)) return;
      ctx.log.error({ err, subscriptionId: state._id }, 'the payment provider did not cancel a subscription');
      throw unavailable(
        err instanceof ProviderError
          ? 'Razorpay could not change your subscription right now. Please try again later.'
          : 'Your subscription could not be changed right now. Please try again later.',
      );
    }
  };

  /** A restart's subscription that will not be needed: cancelled before it ever charges. */
  const withdrawSuccessor = async (successor: SubscriptionState | null) => {
    if (!successor) return;
    if (successor.status !== 'created') await cancelAtProvider(successor, false);
    await ctx.repo.update(
      successor._id,
      (s) => decideLocalStatus(s, 'cancelled', ctx.clock()),
      successor.userId,
    );
  };

  return {
    details,

    /**
     * reader.md §4 and §9: within 7 days of the start of the paid term, cancel at once and refund that payment;
     * later, turn renewal off (Razorpay cancel_at_cycle_end) so premium lasts to the end of the term.
     */
    async cancel(userId: string): Promise<Change> {
      const { current, successor } = await view(userId);
      if (!current?.entitled || !current.endAt) throw conflict('You have no active subscription to cancel');
      const now = ctx.clock();
      const refundable = refundablePayment(current, now);
      if (refundable) {
        await cancelAtProvider(current, false);
        await withdrawSuccessor(successor);
        // At most one refund per payment across every billing instance (the refund ledger's unique key); a
        // concurrent cancel on another pod gets the same refund back.
        const refund = await ctx.refunds.refundOnce({
          paymentId: refundable.paymentId,
          amount: refundable.amount,
          subscriptionId: current._id,
          userId,
        });
        await ctx.repo.update(current._id, (s) => decideImmediateCancel(s, ctx.clock(), refund), userId);
        return { details: await details(userId), message: cancelledNowMessage(refund?.amount ?? null) };
      }
      await withdrawSuccessor(successor);
      if (!current.cancelAtCycleEnd) {
        // Razorpay schedules a cancel at cycle end only for an active subscription; otherwise nothing will charge
        // before the end anyway, so it is cancelled now and premium still runs to endAt here.
        await cancelAtProvider(current, current.status === 'active');
        await ctx.repo.update(current._id, (s) => decideRenewalOff(s), userId);
      }
      const timeZone = await ctx.timeZoneOf(userId);
      return { details: await details(userId), message: renewalOffMessage(current.endAt, timeZone) };
    },

    /**
     * Turns renewal back on. Razorpay cannot undo a cancel, so a new subscription is created to start when the
     * current term ends (start_at = endAt); the reader authorises it at checkout and is charged only at endAt.
     * A paused subscription is resumed instead.
     */
    async restart(customer: Customer): Promise<Change> {
      const { current, successor } = await view(customer.userId);
      if (!current?.entitled || !current.endAt) throw conflict('You have no subscription to restart');
      const timeZone = await ctx.timeZoneOf(customer.userId);
      const endAt = current.endAt;
      if (renewsAtEnd(current, successor)) {
        return { details: await details(customer.userId), message: renewalOnMessage(endAt, timeZone) };
      }
      if (current.status === 'paused' && !current.cancelAtCycleEnd) {
        try {
          await ctx.provider.resumeSubscription(current._id);
        } catch (err) {
          ctx.log.error(
            { err, subscriptionId: current._id },
            'the payment provider did not resume a subscription',
          );
          throw unavailable(
            'Razorpay could not restart your subscription right now. Please try again later.',
          );
        }
        await ctx.repo.update(
          current._id,
          (s) => decideLocalStatus(s, 'active', ctx.clock()),
          customer.userId,
        );
        return { details: await details(customer.userId), message: renewalOnMessage(endAt, timeZone) };
      }
      if (Date.parse(endAt) <= ctx.clock().getTime()) {
        throw conflict('Your subscription has ended. Please subscribe again.');
      }
      const next =
        successor ??
        (await openSubscription(ctx, customer, { startAt: new Date(endAt), predecessorId: current._id }));
      return {
        details: await details(customer.userId),
        message: restartNeedsCheckoutMessage(endAt, timeZone),
        checkout: ticketFor(ctx, next._id),
      };
    },

    /**
     * Razorpay checkout's handler result, reported by the browser. Verified with the key secret and the caller's
     * ownership; recorded for the trail. Activation stays with the webhook (subscription.charged), the provider's
     * server-side word, so a browser can never make anyone premium.
     */
    async confirm(
      userId: string,
      input: { paymentId: string; subscriptionId: string; signature: string },
    ): Promise<{ details: SubscriptionDetailsView | null; message: string }> {
      const payload = `${input.paymentId}|${input.subscriptionId}`;
      if (!signatureMatches(payload, input.signature, ctx.keySecret)) {
        throw badRequest('The payment signature is not valid');
      }
      const state = await ctx.repo.get(input.subscriptionId);
      if (!state || state.userId !== userId) throw badRequest('This subscription does not belong to you');
      const result = await ctx.repo.update(
        state._id,
        (s) => decideCheckoutConfirmed(s, input.paymentId, ctx.clock()),
        userId,
      );
      const active = result?.state.entitled ?? false;
      return {
        details: await details(userId),
        message: active
          ? 'Your payment is confirmed and your subscription is active.'
          : 'Your payment is confirmed. Your subscription starts as soon as Razorpay reports the charge.',
      };
    },
  };
}

export type Renewal = ReturnType<typeof createRenewal>;
