// Temporal workflow code: deterministic, bundled by the worker. It imports only @temporalio/workflow and the
// activity TYPES (proxyActivities); the slot arithmetic is plain integer math on the workflow's clock.
import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { dueReaders, sendBatch } = proxyActivities<Pick<Activities, 'dueReaders' | 'sendBatch'>>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});
const { renewalTick } = proxyActivities<Pick<Activities, 'renewalTick'>>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
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

/** The renewal tick (notices 7 days ahead, expiry after the grace period), started by its own Schedule. */
export async function renewalTickWorkflow() {
  return renewalTick({ at: new Date(Date.now()).toISOString() });
}

/** The refund reconciliation (pending refunds settled with Razorpay), started by its own Schedule. */
export async function refundReconcileWorkflow() {
  return reconcileRefunds({});
}

/** The workflow id of a slot: starting a slot twice is refused by Temporal (one run per slot). */
export const slotWorkflowId = (slot: string) => `reminder-slot-${slot}`;
