import type { RefundReconcileResult, RenewalStep, RenewalStepResult } from '@nudge/contracts';
import { withSpan } from '@nudge/platform';
import { createReminderActivities, type ReminderDeps } from './reminders';

export * from './internal-client';
export type {
  ActivityProgress,
  BatchResult,
  PagePlan,
  PageProgress,
  PageResult,
  ReminderDeps,
} from './reminders';

/**
 * Every activity of the reminders and the renewals, built from their ports. The Temporal worker registers
 * these; the embedded scheduler calls the same functions.
 */
export function createActivities(deps: ReminderDeps) {
  return traced({
    ...createReminderActivities(deps),
    /**
     * One step of a subscription's renewal workflow: billing sends the notice, has the simulated Razorpay charge, or
     * expires the subscription (once per subscription id + endAt + kind) and answers the plan after it.
     */
    async renewalStep(input: RenewalStep) {
      return deps.call<RenewalStepResult>('billing', '/internal/subscriptions/renewal-step', input);
    },
    /**
     * The refund reconciliation: billing settles the refunds left pending with Razorpay. Idempotent (the
     * refund ledger and Razorpay's idempotency key), so a retried activity never refunds twice.
     */
    async reconcileRefunds(_input: Record<string, never> = {}) {
      return deps.call<RefundReconcileResult>('billing', '/internal/refunds/reconcile', {}, 120_000);
    },
  });
}

/**
 * Each activity runs in a span of its own (`activity <name>`), so the services' spans of the internal calls it makes
 * belong to one trace per activity run, whether Temporal's worker or the embedded scheduler calls it.
 */
function traced<A extends Record<string, (input: never) => Promise<unknown>>>(activities: A): A {
  const wrapped: Record<string, unknown> = {};
  for (const [name, activity] of Object.entries(activities)) {
    wrapped[name] = (input: never) =>
      withSpan(`activity ${name}`, { 'nudge.activity': name }, () => activity(input));
  }
  return wrapped as A;
}

export type Activities = ReturnType<typeof createActivities>;
