import type { RenewalPlan, RenewalStep, RenewalStepResult } from '@nudge/contracts';
import type { Logger } from '@nudge/platform';
import type { SubscriptionState } from '../domain/subscription';
import type { Expiry } from './expiry';
import { NOTICE_MS, type RenewalNotices } from './renewal-notices';
import type { SubscriptionRepository } from './subscription-repository';

/**
 * The port to a subscription's renewal workflow: hand it the subscription's new plan, starting it when it
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
  /**
   * The simulated Razorpay's own schedule (embedded topology), which its renewal workflow keeps time for: Razorpay
   * charges at the end of the term by itself; the simulated one does it at the workflow's charge step.
   */
  provider?: ProviderSchedule;
  log: Logger;
}) {
  /** The subscription and the restarts that follow it (Razorpay charges a restart at its start_at, our endAt). */
  const withSuccessors = async (s: SubscriptionState) => [
    s._id,
    ...(await deps.repo.subscriptions.find({ predecessorId: s._id })).map((x) => x._id),
  ];

  async function planOf(id: string, s: SubscriptionState | null): Promise<RenewalPlan> {
    if (!s?.entitled || !s.endAt) return { subscriptionId: id, endAt: s?.endAt ?? null, next: null };
    const endMs = Date.parse(s.endAt);
    // The earliest of: the notice (until it is done), the provider's charge, the expiry after the grace period.
    const steps: { kind: NonNullable<RenewalPlan['next']>['kind']; at: number }[] = [];
    if (!(await deps.notices.done(s))) steps.push({ kind: 'notice', at: endMs - NOTICE_MS });
    const charge = deps.provider ? await deps.provider.nextDue(await withSuccessors(s)) : null;
    if (charge) steps.push({ kind: 'charge', at: Date.parse(charge) });
    steps.push({ kind: 'expiry', at: endMs + (await deps.expiry.graceFor(s)) });
    // Stable: at the same instant the notice goes before the charge, and the charge before the expiry.
    const next = steps.sort((a, b) => a.at - b.at)[0] as (typeof steps)[number];
    return {
      subscriptionId: id,
      endAt: s.endAt,
      next: { kind: next.kind, at: new Date(next.at).toISOString() },
    };
  }

  /** The provider's due charges (and cancellations at cycle end) of a subscription and its restarts, delivered. */
  const providerDue = async (s: SubscriptionState, now: Date) =>
    deps.provider ? deps.provider.runDue(await withSuccessors(s), now) : false;

  const plan = async (id: string) => planOf(id, await deps.repo.get(id));

  /** Hands the workflow the current plan. A failure is logged: the event is recorded, and the next step resyncs. */
  async function tell(state: SubscriptionState) {
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

  /** A restart's change (authorised, withdrawn) changes its predecessor's plan too (its grace, its charge). */
  async function sync(state: SubscriptionState) {
    await tell(state);
    const predecessor = state.predecessorId ? await deps.repo.get(state.predecessorId) : null;
    if (predecessor) await tell(predecessor);
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
      } else if (input.kind === 'charge') {
        const s = await deps.repo.get(input.subscriptionId);
        if (s?.entitled && s.endAt === input.endAt && (await providerDue(s, now))) outcome = 'charged';
      } else {
        // A charge that fell due is never left behind an expiry (its own step normally did it already).
        const s = await deps.repo.get(input.subscriptionId);
        if (s) await providerDue(s, now);
        if (await deps.expiry.expireIfDue(input.subscriptionId, now)) outcome = 'expired';
      }
      return { outcome, plan: await plan(input.subscriptionId) };
    },
  };
}

/**
 * A provider whose schedule billing drives (the simulated Razorpay): when it next charges one of these
 * subscriptions, and its due charges and cancellations delivered to the webhook receiver (true when a charge was).
 */
export interface ProviderSchedule {
  nextDue(subscriptionIds: string[]): Promise<string | null>;
  runDue(subscriptionIds: string[], now: Date): Promise<boolean>;
}

export type RenewalWorkflows = ReturnType<typeof createRenewalWorkflows>;
