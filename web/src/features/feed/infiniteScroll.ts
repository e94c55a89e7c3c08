// Infinite list rules of the home feed (reader.md §4 Feed, §9: trigger at 80% with a 150 ms throttle). Pure.

/** Load the next page once the bottom of the viewport is past this share of the page's height. */
export const SCROLL_TRIGGER_RATIO = 0.8;
/** At most one scroll check per this many milliseconds. */
export const SCROLL_THROTTLE_MS = 150;

export interface ScrollMetrics {
  /** Distance scrolled from the top (window.scrollY). */
  scrollTop: number;
  /** Height of the visible area (window.innerHeight). */
  viewportHeight: number;
  /** Height of the whole document. */
  scrollHeight: number;
}

/**
 * Whether the reader has scrolled past `ratio` of the page: the bottom edge of the viewport is at or beyond
 * `ratio` × the page height. A page shorter than the viewport counts as scrolled past (nothing to scroll), so a
 * short first page still leads to the next one.
 */
export function scrolledPast(metrics: ScrollMetrics, ratio = SCROLL_TRIGGER_RATIO): boolean {
  const { scrollTop, viewportHeight, scrollHeight } = metrics;
  if (!(scrollHeight > 0)) return true;
  return Math.max(0, scrollTop) + Math.max(0, viewportHeight) >= scrollHeight * ratio;
}

export interface ListState {
  /** The first page has arrived (not loading, not failed). */
  loaded: boolean;
  /** False once a page came back without posts. */
  hasMore: boolean;
  /** A next page is on its way. */
  loadingMore: boolean;
  /** The last next-page call failed: wait for the reader to retry rather than calling again on every scroll. */
  moreFailed: boolean;
}

/** Whether the list may ask for its next page now. */
export const canLoadMore = (list: ListState): boolean =>
  list.loaded && list.hasMore && !list.loadingMore && !list.moreFailed;

/** Both together: the list may load more and the reader is far enough down. */
export const shouldLoadMore = (list: ListState, metrics: ScrollMetrics, ratio = SCROLL_TRIGGER_RATIO) =>
  canLoadMore(list) && scrolledPast(metrics, ratio);

// ── throttle ───────────────────────────────────────────────────────────────────────────────────────────────

/** The clock and timers a throttle uses (injectable so the rule can be tested without waiting). */
export interface Timers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  /** Drops a pending trailing call (on unmount). */
  cancel(): void;
}

/**
 * Runs `fn` at most once per `wait` ms: the first call runs at once (leading); calls during the wait are folded
 * into one trailing call at the end of the wait, with the latest arguments, so the final scroll position is
 * always checked.
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  wait: number,
  timers: Timers = realTimers,
): Throttled<A> {
  let last = Number.NEGATIVE_INFINITY;
  let pending: unknown = null;
  let pendingArgs: A | null = null;

  const run = (args: A) => {
    last = timers.now();
    fn(...args);
  };

  const throttled = ((...args: A) => {
    const elapsed = timers.now() - last;
    if (elapsed >= wait && pending === null) {
      run(args);
      return;
    }
    pendingArgs = args;
    if (pending === null) {
      pending = timers.setTimeout(
        () => {
          pending = null;
          const latest = pendingArgs;
          pendingArgs = null;
          if (latest) run(latest);
        },
        Math.max(0, wait - elapsed),
      );
    }
  }) as Throttled<A>;

  throttled.cancel = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
    pendingArgs = null;
  };
  return throttled;
}
