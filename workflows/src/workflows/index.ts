// Temporal workflow code: deterministic, bundled by the worker. It imports only @temporalio/workflow and the
// activity TYPES (proxyActivities); the slot arithmetic is plain integer math on the workflow's clock.
import type { RenewalPlan } from '@nudge/contracts';
import { condition, continueAsNew, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { dueReaders, sendBatch } = proxyActivities<Pick<Activities, 'dueReaders' | 'sendBatch'>>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});
// A renewal step is retried until billing answers (a notice or an expiry must not be lost); a refusal is final.
const { renewalStep } = proxyActivities<Pick<Activities, 'renewalStep'>>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '30 minutes' },
});

const { reconcileRefunds } = proxyActivities<Pick<Activities, 'reconcileRefunds'>>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', maximumAttempts: 3 },
});

const SLOT_MS = 15 * 60_000;
/** Pages per run before continueAsNew, so a slot of many readers keeps a short history. */
export const PAGES_PER_RUN = 50;

export interface SlotInput {
  /** The slot start (ISO); absent when the Schedule starts it: the slot the workflow's clock falls in. */
  slot?: string;
  cursor?: string | null;
  /** A reminder is never sent later than this after its slot (REMINDER_LATENESS_MINUTES). */
  latenessMs?: number;
  batchSize?: number;
  totals?: { sent: number; alreadySent: number; failed: number; skippedLate: number };
}

/**
 * One 15-minute slot: the due readers page by page (one batch activity per page, which follows the delivery rule),
 * continuing as new every PAGES_PER_RUN pages with the cursor. Pages that would go out later than the lateness
 * limit are not sent; their readers are counted.
 */
export async function reminderSlotWorkflow(input: SlotInput = {}) {
  const slot = input.slot ?? new Date(Math.floor(Date.now() / SLOT_MS) * SLOT_MS).toISOString();
  const latenessMs = input.latenessMs ?? 2 * 3600_000;
  const limit = input.batchSize ?? 500;
  const totals = input.totals ?? { sent: 0, alreadySent: 0, failed: 0, skippedLate: 0 };
  let cursor = input.cursor ?? null;
  for (let page = 0; page < PAGES_PER_RUN; page++) {
    const due = await dueReaders({ at: slot, cursor, limit });
    if (Date.now() - Date.parse(slot) > latenessMs) {
      totals.skippedLate += due.readers.length;
    } else if (due.readers.length > 0) {
      const r = await sendBatch({ slot, readers: due.readers });
      totals.sent += r.sent;
      totals.alreadySent += r.alreadySent;
      totals.failed += r.failed;
    }
    cursor = due.next;
    if (!cursor) return { slot, ...totals };
  }
  return continueAsNew<typeof reminderSlotWorkflow>({ ...input, slot, cursor, totals });
}

/** Billing hands a running renewal workflow its subscription's new plan (contracts: RENEWAL_PLAN_SIGNAL). */
export const renewalPlanSignal = defineSignal<[RenewalPlan]>('renewalPlan');
/** Waits and steps per run before continueAsNew (a subscription renewed for years keeps a short history). */
export const RENEWAL_STEPS_PER_RUN = 25;

/**
 * A subscription's renewal (workflow id renewal-{subscriptionId}, started or signalled by billing with
 * signalWithStart): waits for its plan's next step (the notice 7 days before endAt, the simulated Razorpay's charge
 * at endAt in the standalone topology, then the expiry after the grace period) and has billing do it; a new plan (renewal charged, cancel, restart) replaces the wait. Ends when
 * nothing is left to do; billing starts it again when the subscription changes later.
 */
export async function renewalWorkflow(plan: RenewalPlan): Promise<RenewalPlan> {
  let current = plan;
  let changed = false;
  setHandler(renewalPlanSignal, (next) => {
    if (next.subscriptionId !== current.subscriptionId) return;
    current = next;
    changed = true;
  });
  for (let round = 0; round < RENEWAL_STEPS_PER_RUN; round++) {
    const step = current.next;
    if (!step || !current.endAt) return current;
    changed = false;
    const wait = Date.parse(step.at) - Date.now();
    if (wait > 0 && (await condition(() => changed, wait))) continue;
    const result = await renewalStep({
      subscriptionId: current.subscriptionId,
      kind: step.kind,
      endAt: current.endAt,
      at: new Date(Date.now()).toISOString(),
    });
    // A plan signalled while the step ran is newer than the step's answer.
    if (!changed) current = result.plan;
  }
  return continueAsNew<typeof renewalWorkflow>(current);
}

/** The refund reconciliation (pending refunds settled with Razorpay), started by its own Schedule. */
export async function refundReconcileWorkflow() {
  return reconcileRefunds({});
}

/** The workflow id of a slot: starting a slot twice is refused by Temporal (one run per slot). */
export const slotWorkflowId = (slot: string) => `reminder-slot-${slot}`;
