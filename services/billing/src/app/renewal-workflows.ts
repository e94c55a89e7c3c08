import type { RenewalPlan, RenewalStep, RenewalStepResult } from '@nudge/contracts';
import type { Logger } from '@nudge/platform';
import type { SubscriptionState } from '../domain/subscription';
import type { Expiry } from './expiry';
import { NOTICE_MS, type RenewalNotices } from './renewal-notices';
import type { SubscriptionRepository } from './subscription-repository';

/**
 * The port to a subscription's renewal workflow (issue 11): hand it the subscription's new plan, starting it when it
 * is not running. Temporal in production (signalWithStart); the embedded scheduler's durable timers standalone.
 */
export interface RenewalScheduler {
  planChanged(plan: RenewalPlan): Promise<void>;
}

/**
 * Renewals as a workflow per subscription: billing decides what is due (the plan) and does each step when the
 * workflow's timer fires; the workflow only keeps time. Every recorded change of a subscription hands its
 * workflow the new plan; each step answers the plan after it, so a workflow that missed a signal corrects itself.
 */
export function createRenewalWorkflows(deps: {
  repo: SubscriptionRepository;
  expiry: Expiry;
  notices: RenewalNotices;
  scheduler: RenewalScheduler | undefined;
  /** The simulated Razorpay's own schedule (embedded topology): its due charges and cancellations, delivered. */
  providerDue?: () => Promise<void>;
  log: Logger;
}) {
  async function planOf(id: string, s: SubscriptionState | null): Promise<RenewalPlan> {
    if (!s?.entitled || !s.endAt) return { subscriptionId: id, endAt: s?.endAt ?? null, next: null };
    const endMs = Date.parse(s.endAt);
    if (!(await deps.notices.done(s))) {
      return {
        subscriptionId: id,
        endAt: s.endAt,
        next: { kind: 'notice', at: new Date(endMs - NOTICE_MS).toISOString() },
      };
    }
    const grace = await deps.expiry.graceFor(s);
    return {
      subscriptionId: id,
      endAt: s.endAt,
      next: { kind: 'expiry', at: new Date(endMs + grace).toISOString() },
    };
  }

  const plan = async (id: string) => planOf(id, await deps.repo.get(id));

  /** Hands the workflow the current plan. A failure is logged: the event is recorded, and the next step resyncs. */
  async function sync(state: SubscriptionState) {
    if (!deps.scheduler) return;
    try {
      await deps.scheduler.planChanged(await planOf(state._id, state));
    } catch (err) {
      deps.log.error(
        { err, subscriptionId: state._id },
        'the renewal workflow was not told of a subscription change',
      );
    }
  }

  deps.repo.onRecorded(sync);

  return {
    plan,
    /** The webhook receiver's call after every applied delivery (also a repeated one: its signal may have failed). */
    async resync(id: string) {
      const state = await deps.repo.get(id);
      if (state) await sync(state);
    },
    /**
     * Hands every entitled subscription's workflow its plan (at start: subscriptions from before the workflows, or
     * whose last signal failed). Idempotent: a running workflow just gets the same plan again.
     */
    async resyncAll() {
      if (!deps.scheduler) return 0;
      const entitled = await deps.repo.subscriptions.find({ entitled: true }, { sort: { _id: 1 } });
      for (const state of entitled) await sync(state);
      return entitled.length;
    },
    /** One step, idempotent by subscription id + endAt + kind: done once, later calls do nothing. */
    async step(input: RenewalStep): Promise<RenewalStepResult> {
      const now = new Date(input.at);
      let outcome: RenewalStepResult['outcome'] = 'nothing';
      if (input.kind === 'notice') {
        const s = await deps.repo.get(input.subscriptionId);
        if (s?.entitled && s.endAt === input.endAt && now.getTime() >= Date.parse(s.endAt) - NOTICE_MS) {
          if (await deps.notices.send(s, await deps.expiry.renews(s), now)) outcome = 'notice-sent';
        }
      } else {
        // Razorpay charges at the end of the term by itself; the simulated one does it when asked.
        await deps.providerDue?.();
        if (await deps.expiry.expireIfDue(input.subscriptionId, now)) outcome = 'expired';
      }
      return { outcome, plan: await plan(input.subscriptionId) };
    },
  };
}

export type RenewalWorkflows = ReturnType<typeof createRenewalWorkflows>;
