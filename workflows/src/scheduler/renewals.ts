import type { RenewalPlan } from '@nudge/contracts';
import type { DocumentStore, Logger } from '@nudge/platform';
import { type Activities, BusinessRefusal } from '../activities';

interface TimerDoc {
  /** The subscription id. */
  _id: string;
  plan: RenewalPlan;
  /** When the plan's next step is due (null: nothing to do). */
  dueAt: string | null;
  /** Counts plan changes: a step's answer never overwrites a plan that billing changed while it ran. */
  rev: number;
}

export interface RenewalRunReport {
  steps: number;
  noticesSent: number;
  /** Renewals the simulated Razorpay charged at their charge step. */
  charged: number;
  expired: number;
  failed: number;
}

/**
 * The embedded stand-in for the renewal workflows (standalone process only): billing's RenewalScheduler port kept as
 * one durable timer per subscription (its plan and the time its next step is due) in the document store, fired by
 * the embedded scheduler's tick. A restart catches up every step that fell due while the process was down; a
 * step that ran but whose answer was not saved runs again, and billing does it only once (idempotent by
 * subscription id + endAt + kind).
 */
export function createEmbeddedRenewals(deps: {
  store: DocumentStore;
  log: Logger;
  activities: Pick<Activities, 'renewalStep'>;
}) {
  const timers = deps.store.collection<TimerDoc>('renewal_timers');
  const { activities } = deps;

  const save = async (filter: Record<string, unknown>, plan: RenewalPlan, upsert: boolean) => {
    if (!plan.next) {
      await timers.deleteOne(filter);
      return;
    }
    await timers.updateOne(
      filter,
      { $set: { plan, dueAt: plan.next.at }, $inc: { rev: 1 } },
      upsert ? { upsert: true } : {},
    );
  };

  return {
    ensureIndexes: () => timers.createIndex({ dueAt: 1 }),
    /** billing's RenewalScheduler port: the subscription's new plan replaces its timer. */
    async planChanged(plan: RenewalPlan) {
      await save({ _id: plan.subscriptionId }, plan, true);
    },
    /** The plan a subscription's timer holds, or null. */
    async timer(subscriptionId: string) {
      return (await timers.findOne({ _id: subscriptionId }))?.plan ?? null;
    },
    /** Runs every step due at `now`, earliest first; each (subscription, endAt, kind) at most once a run. */
    async runDue(now: Date): Promise<RenewalRunReport> {
      const report: RenewalRunReport = { steps: 0, noticesSent: 0, charged: 0, expired: 0, failed: 0 };
      const done = new Set<string>();
      for (;;) {
        const page = await timers.find(
          { dueAt: { $lte: now.toISOString() } },
          // A step whose answer keeps the same step due (nothing to do yet) is passed over for the rest of the run.
          { sort: { dueAt: 1 }, limit: PAGE + done.size },
        );
        const todo = page.filter((d) => d.plan.next && d.plan.endAt && !done.has(keyOf(d.plan)));
        if (todo.length === 0) break;
        for (const doc of todo) {
          const { next, endAt } = doc.plan;
          if (!next || !endAt) continue;
          done.add(keyOf(doc.plan));
          try {
            const result = await activities.renewalStep({
              subscriptionId: doc._id,
              kind: next.kind,
              endAt,
              at: now.toISOString(),
            });
            report.steps += 1;
            if (result.outcome === 'notice-sent') report.noticesSent += 1;
            if (result.outcome === 'charged') report.charged += 1;
            if (result.outcome === 'expired') report.expired += 1;
            await save({ _id: doc._id, rev: doc.rev }, result.plan, false);
          } catch (err) {
            // As on Temporal: a refusal fails this subscription's workflow (logged, timer dropped); anything
            // else is retried at the next tick.
            if (!(err instanceof BusinessRefusal)) throw err;
            report.failed += 1;
            deps.log.error({ err, subscriptionId: doc._id }, 'renewal step refused: its timer is dropped');
            await timers.deleteOne({ _id: doc._id, rev: doc.rev });
          }
        }
      }
      return report;
    },
  };
}

const PAGE = 100;
const keyOf = (plan: RenewalPlan) => `${plan.subscriptionId}|${plan.endAt}|${plan.next?.kind}`;

export type EmbeddedRenewals = ReturnType<typeof createEmbeddedRenewals>;
