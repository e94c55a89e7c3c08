import { describe, expect, it } from 'vitest';
import {
  canLoadMore,
  SCROLL_THROTTLE_MS,
  SCROLL_TRIGGER_RATIO,
  scrolledPast,
  shouldLoadMore,
  type Timers,
  throttle,
} from './infiniteScroll';

describe('scroll trigger', () => {
  it('fires once the bottom of the viewport is past 80% of the page', () => {
    expect(SCROLL_TRIGGER_RATIO).toBe(0.8);
    // page 2000 high, viewport 800: 80% is 1600, reached at scrollTop 800
    expect(scrolledPast({ scrollTop: 799, viewportHeight: 800, scrollHeight: 2000 })).toBe(false);
    expect(scrolledPast({ scrollTop: 800, viewportHeight: 800, scrollHeight: 2000 })).toBe(true);
    expect(scrolledPast({ scrollTop: 1200, viewportHeight: 800, scrollHeight: 2000 })).toBe(true);
  });

  it('counts a page shorter than the viewport as scrolled past', () => {
    expect(scrolledPast({ scrollTop: 0, viewportHeight: 900, scrollHeight: 700 })).toBe(true);
    expect(scrolledPast({ scrollTop: 0, viewportHeight: 900, scrollHeight: 0 })).toBe(true);
  });

  it('ignores overscroll (negative scrollTop on touch devices)', () => {
    expect(scrolledPast({ scrollTop: -50, viewportHeight: 800, scrollHeight: 1000 })).toBe(true);
    expect(scrolledPast({ scrollTop: -50, viewportHeight: 700, scrollHeight: 1000 })).toBe(false);
  });

  const ready = { loaded: true, hasMore: true, loadingMore: false, moreFailed: false };
  const bottom = { scrollTop: 1000, viewportHeight: 800, scrollHeight: 1800 };

  it('asks for a next page only when the list can take one', () => {
    expect(canLoadMore(ready)).toBe(true);
    expect(canLoadMore({ ...ready, loaded: false })).toBe(false);
    expect(canLoadMore({ ...ready, hasMore: false })).toBe(false);
    expect(canLoadMore({ ...ready, loadingMore: true })).toBe(false);
    expect(canLoadMore({ ...ready, moreFailed: true })).toBe(false);
    expect(shouldLoadMore(ready, bottom)).toBe(true);
    expect(shouldLoadMore(ready, { ...bottom, scrollTop: 0, scrollHeight: 5000 })).toBe(false);
    expect(shouldLoadMore({ ...ready, hasMore: false }, bottom)).toBe(false);
  });
});

/** A hand-driven clock: advance() fires the timers that are due. */
function fakeTimers(): Timers & { advance(ms: number): void } {
  let now = 1_000;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
  };
}

describe('throttle (150 ms)', () => {
  it('runs the first call at once and folds the rest of the window into one trailing call', () => {
    const clock = fakeTimers();
    const calls: number[] = [];
    const check = throttle((y: number) => calls.push(y), SCROLL_THROTTLE_MS, clock);
    check(1);
    expect(calls).toEqual([1]);
    clock.advance(50);
    check(2);
    clock.advance(50);
    check(3);
    expect(calls).toEqual([1]);
    clock.advance(49);
    expect(calls).toEqual([1]);
    clock.advance(1);
    expect(calls).toEqual([1, 3]);
  });

  it('runs at once again after a quiet window', () => {
    const clock = fakeTimers();
    const calls: number[] = [];
    const check = throttle((y: number) => calls.push(y), 150, clock);
    check(1);
    clock.advance(200);
    check(2);
    expect(calls).toEqual([1, 2]);
  });

  it('never runs more than once per 150 ms during continuous scrolling', () => {
    const clock = fakeTimers();
    const at: number[] = [];
    const check = throttle(() => at.push(clock.now()), 150, clock);
    for (let i = 0; i < 100; i++) {
      check();
      clock.advance(10);
    }
    clock.advance(200);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(150);
    expect(at.length).toBeGreaterThanOrEqual(6);
  });

  it('drops the pending call when cancelled', () => {
    const clock = fakeTimers();
    const calls: number[] = [];
    const check = throttle((y: number) => calls.push(y), 150, clock);
    check(1);
    check(2);
    check.cancel();
    clock.advance(500);
    expect(calls).toEqual([1]);
  });
});
