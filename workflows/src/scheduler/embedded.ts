import type { DocumentStore, Logger } from '@nudge/platform';
import type { Activities } from '../activities';
import { emptyTotals, refundReconcile, reminderSlot, type SlotReport, type SlotState } from '../core';
import { slotStart, slotsBetween } from '../slots';
import type { EmbeddedRenewals } from './renewals';

export type { SlotReport } from '../core';

interface SlotDoc {
  _id: string;
  /** The slot's state at its last checkpoint (resumed from after a restart). */
  state: SlotState;
  done: boolean;
  report?: SlotReport;
}
interface StateDoc {
  _id: 'reminders';
  /** The last slot finished (sent or skipped as too late). */
  lastSlot: string;
}

/** Thrown out of a wait when the scheduler stops: the slot resumes from its checkpoint at the next start. */
export class SchedulerStopped extends Error {
  constructor() {
    super('the embedded scheduler stopped');
  }
}

/**
 * The embedded stand-in for Temporal's Schedule and its slot runs (standalone process only): it runs the same slot
 * workflow (core/slot.ts) with durable state in the document store, the last slot finished and each slot's state at
 * its last checkpoint. After a restart it resumes the slot in progress from its checkpoint (every activity is
 * idempotent: the pages sent since are claimed or recorded, and the capture outbox stores a message once), then
 * catches up the slots it missed; readers more than `latenessMs` past their slot are skipped and counted. Each tick
 * then runs the renewal workflows that are due (their timers are durable too) and the refund reconciliation.
 */
export function createEmbeddedScheduler(deps: {
  store: DocumentStore;
  activities: Pick<Activities, 'planPages' | 'sendPage'> & Partial<Pick<Activities, 'reconcileRefunds'>>;
  /** The renewal workflows' durable timers: their due steps run after the slots of each tick. */
  renewals?: Pick<EmbeddedRenewals, 'runDue'>;
  log: Logger;
  clock: () => Date;
  latenessMs: number;
  batchSize: number;
  /** Pages sent at once (REMINDER_PAGE_CONCURRENCY). */
  concurrency?: number;
}) {
  const slots = deps.store.collection<SlotDoc>('reminder_slots');
  const state = deps.store.collection<StateDoc>('scheduler_state');
  let running: Promise<SlotReport[]> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  /** Wakes the waits in progress when the scheduler stops. */
  const waits = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (stopped) return reject(new SchedulerStopped());
      const wake = () => {
        clearTimeout(t);
        waits.delete(wake);
        reject(new SchedulerStopped());
      };
      const t = setTimeout(() => {
        waits.delete(wake);
        resolve();
      }, ms);
      waits.add(wake);
    });
  /** A stopping scheduler starts no new page (the pages in flight finish). */
  const unlessStopped =
    <I, O>(activity: (input: I) => Promise<O>) =>
    (input: I) =>
      stopped ? Promise.reject(new SchedulerStopped()) : activity(input);
  const activities = {
    planPages: unlessStopped(deps.activities.planPages),
    sendPage: unlessStopped(deps.activities.sendPage),
  };

  async function runSlot(slot: Date): Promise<SlotReport> {
    const at = slot.toISOString();
    const doc = await slots.findOne({ _id: at });
    if (doc?.done && doc.report) return doc.report;
    const start: SlotState = doc?.state ?? {
      slot: at,
      latenessMs: deps.latenessMs,
      pageSize: deps.batchSize,
      concurrency: deps.concurrency ?? 1,
      cursor: null,
      totals: emptyTotals(),
    };
    const report = await reminderSlot(
      {
        activities,
        now: () => deps.clock().getTime(),
        sleep,
        async checkpoint(s) {
          await slots.replaceOne({ _id: at }, { _id: at, state: s, done: false }, { upsert: true });
        },
      },
      start,
    );
    await slots.replaceOne({ _id: at }, { _id: at, state: start, done: true, report }, { upsert: true });
    await state.replaceOne({ _id: 'reminders' }, { _id: 'reminders', lastSlot: at }, { upsert: true });
    if (report.sent || report.skippedLate || report.failed || report.inDoubt || report.failedPages)
      deps.log.info(report, 'reminder slot finished');
    if (report.skippedLate)
      deps.log.warn(
        { slot: at, skipped: report.skippedLate },
        'reminder slot more than the lateness limit behind: its remaining readers are skipped',
      );
    return report;
  }

  async function runDueNow(): Promise<SlotReport[]> {
    const now = deps.clock();
    const last = await state.findOne({ _id: 'reminders' });
    // First start ever: begin at the current slot (no history to catch up).
    const todo = slotsBetween(last ? new Date(last.lastSlot) : null, now);
    const reports: SlotReport[] = [];
    try {
      for (const slot of todo) {
        if (stopped) break;
        reports.push(await runSlot(slot));
      }
    } catch (err) {
      if (!(err instanceof SchedulerStopped)) throw err;
      return reports;
    }
    if (deps.renewals && !stopped) {
      try {
        const r = await deps.renewals.runDue(now);
        if (r.steps) deps.log.info(r, 'renewal steps');
      } catch (err) {
        deps.log.warn({ err }, 'a renewal step failed; the next tick runs it again');
      }
    }
    const { reconcileRefunds } = deps.activities;
    if (reconcileRefunds && !stopped) {
      try {
        await refundReconcile({ activities: { reconcileRefunds } });
      } catch (err) {
        deps.log.warn({ err }, 'refund reconciliation failed; the next tick runs it again');
      }
    }
    return reports;
  }

  /** Runs every slot due by the clock (resume, catch-up, the current slot); one run at a time. */
  function runDue(): Promise<SlotReport[]> {
    const next = (running ?? Promise.resolve([])).catch(() => []).then(runDueNow);
    running = next;
    return next;
  }

  function schedule() {
    if (stopped) return;
    const now = Date.now();
    const wait = slotStart(new Date(now)).getTime() + 15 * 60_000 - now + 1_000;
    timer = setTimeout(() => {
      runDue()
        .catch((err: unknown) =>
          deps.log.error({ err }, 'reminder slot run failed; the next tick resumes it'),
        )
        .finally(schedule);
    }, wait);
    timer.unref();
  }

  return {
    runDue,
    /** Runs what is due now, then at every 15-minute boundary (real time). */
    start() {
      stopped = false;
      runDue().catch((err: unknown) =>
        deps.log.error({ err }, 'reminder catch-up failed; the next tick resumes it'),
      );
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const wake of [...waits]) wake();
      await running?.catch(() => undefined);
    },
  };
}

export type EmbeddedScheduler = ReturnType<typeof createEmbeddedScheduler>;
