// The Temporal side of the workflows: each body of ../core run with a context built from @temporalio/workflow
// (proxied activities, the workflow's clock and timers, signals, continue-as-new, patch markers). Deterministic,
// bundled at build time (scripts/build-workflows.ts); it imports @temporalio/workflow, @temporalio/common and the
// bodies, and only types besides.
import type { RenewalPlan } from '@nudge/contracts';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import {
  condition,
  continueAsNew,
  defineSignal,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  emptyTotals,
  type RenewalContext,
  refundReconcile,
  reminderSlot,
  renewal,
  type SlotState,
  type SlotTotals,
} from '../core';

const { planPages } = proxyActivities<Pick<Activities, 'planPages'>>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds', maximumAttempts: 5 },
});
// A page heartbeats per message (a dead worker's page moves to another within the heartbeat timeout) and may wait
// out a provider's throttling up to the slot's lateness limit. Its retries go on from its last heartbeat; past them
// the slot's body retries the page while its window lasts.
const { sendPage } = proxyActivities<Pick<Activities, 'sendPage'>>({
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
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

/** The nominal time a Schedule started this run for (absent when a client started it). */
const SCHEDULED_START = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);
const SLOT_MS = 15 * 60_000;
/** Events in a slot run's history before it continues as new (Temporal warns at 10,240). */
export const SLOT_HISTORY_EVENTS = 2_000;

export interface SlotInput {
  /** The slot (ISO). The Schedule's runs have none: their slot is the Schedule's nominal time. */
  slot?: string;
  latenessMs?: number;
  /** Due accounts per page (REMINDER_BATCH_SIZE). */
  batchSize?: number;
  /** Pages sent at once (REMINDER_PAGE_CONCURRENCY). */
  concurrency?: number;
  cursor?: string | null;
  totals?: SlotTotals;
  /** Events before continuing as new (SLOT_HISTORY_EVENTS). */
  historyEvents?: number;
}

/**
 * One 15-minute slot (core/slot.ts). Its slot is the Schedule's nominal start (TemporalScheduledStartTime), never the
 * worker's clock: a run that starts late (a backlog, a worker or Temporal down) sends the slot it was scheduled for.
 */
export async function reminderSlotWorkflow(input: SlotInput = {}) {
  const nominal = workflowInfo().typedSearchAttributes.get(SCHEDULED_START);
  const at = input.slot ? Date.parse(input.slot) : (nominal?.getTime() ?? Date.now());
  const historyEvents = input.historyEvents ?? SLOT_HISTORY_EVENTS;
  const state: SlotState = {
    slot: new Date(Math.floor(at / SLOT_MS) * SLOT_MS).toISOString(),
    latenessMs: input.latenessMs ?? 2 * 3600_000,
    pageSize: input.batchSize ?? 500,
    concurrency: input.concurrency ?? 4,
    cursor: input.cursor ?? null,
    totals: input.totals ?? emptyTotals(),
  };
  return reminderSlot(
    {
      activities: { planPages, sendPage },
      now: () => Date.now(),
      sleep: (ms) => sleep(ms),
      async checkpoint(s) {
        const info = workflowInfo();
        if (info.continueAsNewSuggested || info.historyLength > historyEvents)
          await continueAsNew<typeof reminderSlotWorkflow>({
            slot: s.slot,
            latenessMs: s.latenessMs,
            batchSize: s.pageSize,
            concurrency: s.concurrency,
            cursor: s.cursor,
            totals: s.totals,
            historyEvents,
          });
      },
    },
    state,
  );
}

/** Billing hands a running renewal workflow its subscription's new plan (contracts: RENEWAL_PLAN_SIGNAL). */
export const renewalPlanSignal = defineSignal<[RenewalPlan]>('renewalPlan');
/** Rounds (a wait, a step) per run before continueAsNew (a subscription renewed for years keeps a short history). */
export const RENEWAL_STEPS_PER_RUN = 25;

/**
 * A subscription's renewal (core/renewal.ts; workflow id renewal-{subscriptionId}, started or signalled by billing
 * with signalWithStart). A plan signalled at the start (signalWithStart) replaces the one it started with.
 */
export async function renewalWorkflow(plan: RenewalPlan): Promise<RenewalPlan> {
  let signalled: RenewalPlan | null = null;
  setHandler(renewalPlanSignal, (next) => {
    if (next.subscriptionId === plan.subscriptionId) signalled = next;
  });
  const take = () => {
    const newer = signalled;
    signalled = null;
    return newer;
  };
  let rounds = 0;
  const ctx: RenewalContext = {
    activities: { renewalStep },
    now: () => Date.now(),
    async waitForPlan(at) {
      if (signalled) return take();
      return (await condition(() => signalled !== null, at - Date.now())) ? take() : null;
    },
    takePlan: async () => take(),
    async checkpoint(current) {
      if (++rounds > RENEWAL_STEPS_PER_RUN) await continueAsNew<typeof renewalWorkflow>(current);
    },
    patched,
  };
  return renewal(ctx, take() ?? plan);
}

/** The refund reconciliation (pending refunds settled with Razorpay), started by its own Schedule. */
export async function refundReconcileWorkflow() {
  return refundReconcile({ activities: { reconcileRefunds } });
}

/** The workflow id of a slot started by hand (the Schedule's own runs are `<schedule id>-<nominal time>`). */
export const slotWorkflowId = (slot: string) => `reminder-slot-${slot}`;
