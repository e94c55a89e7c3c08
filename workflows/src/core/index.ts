// The workflows, each written once over a small context that Temporal (workflows/temporal.ts) and the embedded
// scheduler (scheduler/embedded.ts) each provide.
import type { RefundReconcileResult } from '@nudge/contracts';

export * from './renewal';
export * from './slot';

/** The refund reconciliation (pending refunds settled with Razorpay): one idempotent activity. */
export function refundReconcile(ctx: {
  activities: { reconcileRefunds(input: Record<string, never>): Promise<RefundReconcileResult> };
}) {
  return ctx.activities.reconcileRefunds({});
}
