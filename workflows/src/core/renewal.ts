// A subscription's renewal, written once: Temporal runs it (workflows/temporal.ts) and so does the embedded
// scheduler (scheduler/embedded.ts). Deterministic; imports types only (bundled into Temporal's workflow sandbox).
import type { RenewalPlan, RenewalStep, RenewalStepResult } from '@nudge/contracts';

export interface RenewalContext {
  activities: { renewalStep(step: RenewalStep): Promise<RenewalStepResult> };
  now(): number;
  /** Waits until `at` (ms) unless billing hands over a new plan first: that plan, or null when the time came. */
  waitForPlan(at: number): Promise<RenewalPlan | null>;
  /** The plan billing handed over while a step ran (it is newer than the step's answer), or null. */
  takePlan(): Promise<RenewalPlan | null>;
  /** A safe point to keep the plan at (at the top of every round). */
  checkpoint(plan: RenewalPlan): Promise<void>;
  /** Temporal's patch marker for a change of the commands a running workflow replays (embedded: always true). */
  patched(id: string): boolean;
}

/** When billing answers a step with the same step still due (nothing could be done yet), it is tried again after this. */
export const STEP_AGAIN_MS = 15 * 60_000;

/**
 * Waits for the plan's next step (the notice 7 days before endAt, the simulated Razorpay's charge at endAt in the
 * standalone topology, the expiry after the grace period) and has billing do it; a new plan from billing (a renewal
 * charged, a cancel, a restart) replaces the wait. Ends when nothing is left to do; billing starts it again when the
 * subscription changes later.
 */
export async function renewal(ctx: RenewalContext, plan: RenewalPlan): Promise<RenewalPlan> {
  let current = plan;
  for (;;) {
    await ctx.checkpoint(current);
    const step = current.next;
    if (!step || !current.endAt) return current;
    const at = Date.parse(step.at);
    if (at > ctx.now()) {
      const newer = await ctx.waitForPlan(at);
      if (newer) {
        current = newer;
        continue;
      }
    }
    const result = await ctx.activities.renewalStep({
      subscriptionId: current.subscriptionId,
      kind: step.kind,
      endAt: current.endAt,
      at: new Date(ctx.now()).toISOString(),
    });
    const newer = await ctx.takePlan();
    current = newer ?? result.plan;
    // The same step due again: billing could not do it yet (a mail server down). Wait before the next try.
    const again = current.next;
    if (
      !newer &&
      again?.kind === step.kind &&
      Date.parse(again.at) <= ctx.now() &&
      ctx.patched('renewal-step-again-later')
    ) {
      const changed = await ctx.waitForPlan(ctx.now() + STEP_AGAIN_MS);
      if (changed) current = changed;
    }
  }
}
