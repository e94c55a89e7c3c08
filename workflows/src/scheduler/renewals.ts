import type { RenewalPlan } from '@nudge/contracts';
import type { DocumentStore, Logger } from '@nudge/platform';
import { type Activities, BusinessRefusal } from '../activities';
import { renewal } from '../core';

interface TimerDoc {
  /** The subscription id. */
  _id: string;
  plan: RenewalPlan;
  /** When the workflow wakes next (its plan's next step, or a later retry); null: nothing to do. */
  dueAt: string | null;
  /** Counts changes: a step's answer never overwrites a plan that billing changed while it ran. */
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

/** The workflow waits (its timer is saved); it runs again when the timer is due or billing changes its plan. */
class Waiting extends Error {}

/**
 * The embedded stand-in for the renewal workflows (standalone process only): each subscription's renewal workflow
 * (core/renewal.ts) run with its timer and plan durable in the document store (billing's RenewalScheduler port
 * replaces the plan, as Temporal's signal does) and fired by the embedded scheduler's tick. A restart catches up
 * every step that fell due while the process was down; a step that ran but whose answer was not saved runs again, and
 * billing does it only once (idempotent by subscription id + endAt + kind).
 */
export function createEmbeddedRenewals(deps: {
  store: DocumentStore;
  log: Logger;
  activities: Pick<Activities, 'renewalStep'>;
}) {
  const timers = deps.store.collection<TimerDoc>('renewal_timers');

  /** One subscription's workflow, from its saved plan until it waits again, ends, or is refused. */
  async function run(doc: TimerDoc, now: Date, report: RenewalRunReport) {
    let rev = doc.rev;
    const saved = async (update: Record<string, unknown>) => {
      const res = await timers.updateOne({ _id: doc._id, rev }, { ...update, $inc: { rev: 1 } });
      // Billing changed the plan meanwhile: the workflow runs again from that plan.
      if (res.matchedCount === 0) throw new Waiting();
      rev += 1;
    };
    try {
      await renewal(
        {
          activities: {
            async renewalStep(step) {
              const result = await deps.activities.renewalStep(step);
              report.steps += 1;
              if (result.outcome === 'notice-sent') report.noticesSent += 1;
              if (result.outcome === 'charged') report.charged += 1;
              if (result.outcome === 'expired') report.expired += 1;
              return result;
            },
          },
          now: () => now.getTime(),
          async waitForPlan(at) {
            await saved({ $set: { dueAt: new Date(at).toISOString() } });
            throw new Waiting();
          },
          async takePlan() {
            const current = await timers.findOne({ _id: doc._id });
            if (!current || current.rev === rev) return null;
            rev = current.rev;
            return current.plan;
          },
          async checkpoint(plan) {
            if (!plan.next) {
              await timers.deleteOne({ _id: doc._id, rev });
              return;
            }
            await saved({ $set: { plan, dueAt: plan.next.at } });
          },
          patched: () => true,
        },
        doc.plan,
      );
    } catch (err) {
      if (err instanceof Waiting) return;
      // As on Temporal: a refusal fails this subscription's workflow (logged, timer dropped); anything else is
      // retried at the next tick.
      if (!(err instanceof BusinessRefusal)) throw err;
      report.failed += 1;
      deps.log.error({ err, subscriptionId: doc._id }, 'renewal step refused: its timer is dropped');
      await timers.deleteOne({ _id: doc._id, rev });
    }
  }

  return {
    ensureIndexes: () => timers.createIndex({ dueAt: 1 }),
    /** billing's RenewalScheduler port (Temporal's signal): the subscription's new plan replaces its workflow's. */
    async planChanged(plan: RenewalPlan) {
      if (!plan.next) {
        await timers.deleteOne({ _id: plan.subscriptionId });
        return;
      }
      await timers.updateOne(
        { _id: plan.subscriptionId },
        { $set: { plan, dueAt: plan.next.at }, $inc: { rev: 1 } },
        { upsert: true },
      );
    },
    /** The plan a subscription's workflow holds, or null. */
    async timer(subscriptionId: string) {
      return (await timers.findOne({ _id: subscriptionId }))?.plan ?? null;
    },
    /** Runs every workflow whose timer is due at `now`, earliest first; each at most once a run. */
    async runDue(now: Date): Promise<RenewalRunReport> {
      const report: RenewalRunReport = { steps: 0, noticesSent: 0, charged: 0, expired: 0, failed: 0 };
      const ran = new Set<string>();
      for (;;) {
        const page = await timers.find(
          { dueAt: { $lte: now.toISOString() } },
          { sort: { dueAt: 1 }, limit: PAGE + ran.size },
        );
        const todo = page.filter((d) => !ran.has(d._id));
        if (todo.length === 0) break;
        for (const doc of todo) {
          ran.add(doc._id);
          await run(doc, now, report);
        }
      }
      return report;
    },
  };
}

const PAGE = 100;

export type EmbeddedRenewals = ReturnType<typeof createEmbeddedRenewals>;
