import { newId } from '@nudge/platform';
import { PREMIUM_PLAN, TOTAL_COUNT } from '../domain/plan';
import { decideCreate, type SubscriptionState } from '../domain/subscription';
import { ProviderError } from '../infra/payment-provider';
import type { BillingContext } from './context';

/** A refused or failed checkout: answered `{ status: false, message, user }` (reader.md §4) with this status. */
export class CheckoutRefusal extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'CheckoutRefusal';
  }
}

export interface CheckoutTicket {
  key: string;
  subscriptionId: string;
  checkoutUrl?: string;
}

export interface Customer {
  userId: string;
  email: string;
}

/** Creates a subscription at the provider and records it; `startAt` = a restart that takes over later. */
export async function openSubscription(
  ctx: BillingContext,
  customer: Customer,
  options: { startAt?: Date; predecessorId?: string } = {},
): Promise<SubscriptionState> {
  if (ctx.provider.kind === 'unconfigured') {
    throw new CheckoutRefusal('Payments are not available on this server yet. Please try again later.', 503);
  }
  let created: Awaited<ReturnType<typeof ctx.provider.createSubscription>>;
  try {
    created = await ctx.provider.createSubscription({
      planId: ctx.planId,
      totalCount: TOTAL_COUNT,
      notes: {
        userId: customer.userId,
        ...(options.predecessorId ? { renews: options.predecessorId } : {}),
      },
      ...(options.startAt ? { startAt: options.startAt } : {}),
    });
  } catch (err) {
    ctx.log.error({ err, userId: customer.userId }, 'the payment provider did not create a subscription');
    throw new CheckoutRefusal(
      err instanceof ProviderError
        ? 'We could not start the payment with Razorpay. Please try again later.'
        : 'We could not start the payment. Please try again later.',
      502,
    );
  }
  const state = await ctx.repo.create(
    created.id,
    decideCreate({
      subscriptionId: created.id,
      recordId: newId(ctx.clock()),
      userId: customer.userId,
      email: customer.email,
      planId: ctx.planId,
      amount: PREMIUM_PLAN.amount,
      currency: PREMIUM_PLAN.currency,
      totalCount: TOTAL_COUNT,
      startAt: options.startAt ? options.startAt.toISOString() : null,
      predecessorId: options.predecessorId ?? null,
    }),
    customer.userId,
  );
  if (!state) throw new Error(`subscription ${created.id} missing after it was recorded`);
  return state;
}

export const ticketFor = (ctx: BillingContext, subscriptionId: string): CheckoutTicket => ({
  key: ctx.keyId,
  subscriptionId,
  ...(ctx.simulatedCheckoutUrl ? { checkoutUrl: ctx.simulatedCheckoutUrl(subscriptionId) } : {}),
});

/**
 * POST /api/payment/checkout: admins, readers with a running subscription and readers an admin made premium (role
 * premium without a paid subscription: they already have everything the subscription sells) are refused with 409. A
 * reader with an unpaid checkout gets that one again.
 * The role is the current one (authenticate() reads it from billing's directory, not from the token).
 */
export function createCheckout(ctx: BillingContext) {
  return {
    async start(claims: Customer & { role: string }): Promise<CheckoutTicket> {
      if (claims.role === 'admin')
        throw new CheckoutRefusal('Admins already have every premium feature', 409);
      const subscriptions = await ctx.repo.byUser(claims.userId);
      if (subscriptions.some((s) => s.entitled)) {
        throw new CheckoutRefusal('You already have an active subscription', 409);
      }
      if (claims.role === 'premium')
        throw new CheckoutRefusal(
          'You already have premium access, given by an administrator, so there is nothing to buy',
          409,
        );
      // A checkout opened before and not paid (another tab, a payment that failed) is the one to pay: a second
      // subscription is never opened beside it. (Two opened at the same moment are settled at the charge.)
      const open = subscriptions.find(
        (s) => s.status === 'created' && !s.predecessorId && s.payments.length === 0,
      );
      if (open) return ticketFor(ctx, open._id);
      const created = await openSubscription(ctx, claims);
      return ticketFor(ctx, created._id);
    },
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
