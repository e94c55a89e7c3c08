import type { DocumentStore, Logger } from '@nudge/platform';
import type { Activities, BatchResult } from '../activities';
import { slotStart, slotsBetween } from '../slots';
import type { EmbeddedRenewals } from './renewals';

interface SlotDoc {
  _id: string;
  /** The due-readers cursor of the next page to send (null: from the start). */
  cursor: string | null;
  done: boolean;
  sent: number;
  alreadySent: number;
  skippedLate: number;
  failed: number;
}
interface StateDoc {
  _id: 'reminders';
  /** The last slot finished (sent or skipped as too late). */
  lastSlot: string;
}

export interface SlotReport {
  slot: string;
  sent: number;
  alreadySent: number;
  skippedLate: number;
  failed: number;
}

/**
 * The embedded stand-in for Temporal's Schedule and slot workflow (standalone process only). Its state is durable
 * in the document store: the last slot finished, and for the slot in progress the cursor of the next page. After a
 * restart it resumes the slot in progress from the page it was on (the delivery rule makes the re-sent page a
 * no-op for what was recorded, and the capture outbox stores an in-flight message once), then catches up the slots
 * it missed; readers more than `latenessMs` past their slot are skipped and counted in the log. Each tick then runs
 * the renewal workflows' steps that are due (their timers are durable too, so downtime only delays them).
 */
export function createEmbeddedScheduler(deps: {
  store: DocumentStore;
  activities: Pick<Activities, 'dueReaders' | 'sendBatch'> & Partial<Pick<Activities, 'reconcileRefunds'>>;
  /** The renewal workflows' durable timers: their due steps run after the slots of each tick. */
  renewals?: Pick<EmbeddedRenewals, 'runDue'>;
  log: Logger;
  clock: () => Date;
  latenessMs: number;
  batchSize: number;
}) {
  const slots = deps.store.collection<SlotDoc>('reminder_slots');
  const state = deps.store.collection<StateDoc>('scheduler_state');
  let running: Promise<SlotReport[]> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const late = (slot: Date) => deps.clock().getTime() - slot.getTime() > deps.latenessMs;

  async function countRest(at: string, cursor: string | null) {
    let n = 0;
    let next = cursor;
    do {
      const page = await deps.activities.dueReaders({ at, cursor: next, limit: deps.batchSize });
      n += page.readers.length;
      next = page.next;
    } while (next);
    return n;
  }

  async function runSlot(slot: Date): Promise<SlotReport> {
    const at = slot.toISOString();
    let doc = await slots.findOne({ _id: at });
    if (!doc) {
      doc = { _id: at, cursor: null, done: false, sent: 0, alreadySent: 0, skippedLate: 0, failed: 0 };
      await slots.insertOne(doc);
    }
    let cursor = doc.cursor;
    // The next page is asked for while the current one is sent (auth answers while the batch renders and waits).
    const fetchPage = (from: string | null) => {
      const page = deps.activities.dueReaders({ at, cursor: from, limit: deps.batchSize });
      page.catch(() => undefined); // awaited below, or dropped with the slot
      return page;
    };
    let nextPage = doc.done ? null : fetchPage(cursor);
    while (!doc.done && !stopped) {
      if (late(slot)) {
        doc.skippedLate += await countRest(at, cursor);
        deps.log.warn(
          { slot: at, skipped: doc.skippedLate },
          'reminder slot more than the lateness limit behind: its remaining readers are skipped',
        );
        doc.done = true;
        break;
      }
      const page = await (nextPage ?? fetchPage(cursor));
      nextPage = page.next ? fetchPage(page.next) : null;
      const r: BatchResult =
        page.readers.length > 0
          ? await deps.activities.sendBatch({ slot: at, readers: page.readers })
          : { sent: 0, alreadySent: 0, nothing: 0, failed: 0, suppressed: 0 };
      doc.sent += r.sent;
      doc.alreadySent += r.alreadySent;
      doc.failed += r.failed;
      cursor = page.next;
      doc.cursor = cursor;
      doc.done = cursor === null;
      await slots.updateOne(
        { _id: at },
        {
          $set: {
            cursor,
            done: doc.done,
            sent: doc.sent,
            alreadySent: doc.alreadySent,
            failed: doc.failed,
            skippedLate: doc.skippedLate,
          },
        },
      );
    }
    if (doc.done) {
      await slots.updateOne({ _id: at }, { $set: { done: true, skippedLate: doc.skippedLate } });
      await state.replaceOne({ _id: 'reminders' }, { _id: 'reminders', lastSlot: at }, { upsert: true });
      if (doc.sent || doc.skippedLate || doc.failed)
        deps.log.info({ slot: at, ...pick(doc) }, 'reminder slot finished');
    }
    return { slot: at, ...pick(doc) };
  }

  async function runDueNow(): Promise<SlotReport[]> {
    const now = deps.clock();
    const last = await state.findOne({ _id: 'reminders' });
    // First start ever: begin at the current slot (no history to catch up).
    const todo = slotsBetween(last ? new Date(last.lastSlot) : null, now);
    const reports: SlotReport[] = [];
    for (const slot of todo) {
      if (stopped) break;
      reports.push(await runSlot(slot));
    }
    if (deps.renewals && !stopped) {
      try {
        const r = await deps.renewals.runDue(now);
        if (r.steps) deps.log.info(r, 'renewal steps');
      } catch (err) {
        deps.log.warn({ err }, 'a renewal step failed; the next tick runs it again');
      }
    }
    if (deps.activities.reconcileRefunds && !stopped) {
      try {
        await deps.activities.reconcileRefunds({});
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
      await running?.catch(() => undefined);
    },
  };
}

const pick = (d: SlotDoc) => ({
  sent: d.sent,
  alreadySent: d.alreadySent,
  skippedLate: d.skippedLate,
  failed: d.failed,
});

export type EmbeddedScheduler = ReturnType<typeof createEmbeddedScheduler>;
