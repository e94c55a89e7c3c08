// The reminder slot, written once: Temporal runs it (workflows/temporal.ts) and so does the embedded scheduler of the
// standalone process (scheduler/embedded.ts). Deterministic: it reads time only from its context, and imports types
// and nothing else (it is bundled into Temporal's workflow sandbox).
import type { PagePlan, PageResult } from '../activities';

/** What the slot needs from its engine. */
export interface SlotContext {
  activities: {
    planPages(input: { at: string; cursor: string | null; size: number; pages: number }): Promise<PagePlan>;
    sendPage(input: {
      slot: string;
      after: string | null;
      until: string | null;
      deadline: number;
    }): Promise<PageResult>;
  };
  /** The workflow's clock (ms). */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** A safe point to keep the state at: Temporal continues as new when the history grows; embedded saves it. */
  checkpoint(state: SlotState): Promise<void>;
}

export interface SlotTotals {
  /** Messages delivered and recorded. */
  sent: number;
  /** Send keys recorded (or claimed by another slot of the same local day) before. */
  alreadySent: number;
  /** Readers not sent to because the lateness limit had passed (late slots, throttling that outlasted it). */
  skippedLate: number;
  /** Messages the transport refused (after the retries of their page). */
  failed: number;
  /** Messages an earlier attempt may have delivered: not delivered again on a transport without idempotency keys. */
  inDoubt: number;
  /** WhatsApp messages beyond the account's daily distinct recipients (WHATSAPP_DAILY_RECIPIENTS). */
  overLimit: number;
  /** Pages that never answered within the slot's window (their readers are not counted). */
  failedPages: number;
}

export interface SlotState {
  /** The slot's nominal start (ISO): the Schedule's time, never a worker's clock. */
  slot: string;
  /** A reminder is never sent later than this after its slot (REMINDER_LATENESS_MINUTES). */
  latenessMs: number;
  /** Due accounts per page (REMINDER_BATCH_SIZE). */
  pageSize: number;
  /** Pages sent at once (REMINDER_PAGE_CONCURRENCY). */
  concurrency: number;
  /** Where the next pages start (null: the slot's start). */
  cursor: string | null;
  totals: SlotTotals;
}

export type SlotReport = { slot: string } & SlotTotals;

export const emptyTotals = (): SlotTotals => ({
  sent: 0,
  alreadySent: 0,
  skippedLate: 0,
  failed: 0,
  inDoubt: 0,
  overLimit: 0,
  failedPages: 0,
});

/** Pages planned at once (each plan reads only ids). */
export const PAGES_PER_PLAN = 50;
/** Runs of a page for messages its transport refused, within the window. */
const PAGE_RUNS = 3;
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 60_000;

/**
 * One 15-minute slot: its due readers cut into pages, `concurrency` pages sent at once (each page activity reads its
 * own readers, so no reader list passes through the workflow's history), a checkpoint after every plan. A page that
 * fails is retried with back-off within the slot's window while the other pages go on; pages that start after the
 * lateness limit only count their readers (skippedLate).
 */
export async function reminderSlot(ctx: SlotContext, start: SlotState): Promise<SlotReport> {
  const state: SlotState = { ...start, totals: { ...start.totals } };
  const { slot, totals } = state;
  const deadline = Date.parse(slot) + state.latenessMs;

  /** One page: run, and run again for what its transport refused, backing off, while the window lasts. */
  async function page(after: string | null, until: string | null) {
    let refused = 0;
    let answered = 0;
    for (let wait = RETRY_FIRST_MS; ; wait = Math.min(2 * wait, RETRY_MAX_MS)) {
      let r: PageResult;
      try {
        r = await ctx.activities.sendPage({ slot, after, until, deadline });
      } catch {
        // No answer at all (auth down, the activity's own retries spent): the page goes on being retried until the
        // window closes; the slot's other pages are not held up by it.
        if (ctx.now() + wait > deadline) {
          totals.failedPages += 1;
          return;
        }
        await ctx.sleep(wait);
        continue;
      }
      totals.sent += r.sent;
      totals.skippedLate += r.skippedLate;
      totals.inDoubt += r.inDoubt;
      totals.overLimit += r.overLimit;
      // A second run finds the first run's sends recorded: they are not counted again.
      if (answered++ === 0) totals.alreadySent += r.alreadySent;
      refused = r.failed;
      if (refused === 0 || answered >= PAGE_RUNS || ctx.now() + wait > deadline) break;
      await ctx.sleep(wait);
    }
    totals.failed += refused;
  }

  do {
    const plan = await ctx.activities.planPages({
      at: slot,
      cursor: state.cursor,
      size: state.pageSize,
      pages: PAGES_PER_PLAN,
    });
    const ranges = plan.ends.map((until, i) => ({
      after: i === 0 ? state.cursor : (plan.ends[i - 1] ?? null),
      until,
    }));
    let next = 0;
    const lane = async () => {
      while (next < ranges.length) {
        const range = ranges[next++] as (typeof ranges)[number];
        await page(range.after, range.until);
      }
    };
    await Promise.all(Array.from({ length: Math.min(state.concurrency, ranges.length) }, lane));
    state.cursor = plan.next;
    if (state.cursor) await ctx.checkpoint(state);
  } while (state.cursor);
  return { slot, ...totals };
}
