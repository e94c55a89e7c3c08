import { describe, expect, it, vi } from 'vitest';
import { createEventBatcher } from './batcher';

const entry = (token: string | undefined, n: number) => ({
  ...(token ? { token } : {}),
  eventType: 'page_visit',
  eventValue: `/p/${n}`,
  metadata: {},
});

describe('the event batcher', () => {
  it('sends one batch per token when maxEvents are waiting', async () => {
    const send = vi.fn(async (_batch: unknown) => undefined);
    const batcher = createEventBatcher({ send, maxEvents: 3, delayMs: 60_000 });
    batcher.add(entry('a', 1));
    batcher.add(entry(undefined, 2));
    expect(send).not.toHaveBeenCalled();
    batcher.add(entry('a', 3));
    await Promise.resolve();
    expect(send.mock.calls.map((c) => c[0])).toEqual([
      {
        token: 'a',
        events: [
          { eventType: 'page_visit', eventValue: '/p/1', metadata: {} },
          { eventType: 'page_visit', eventValue: '/p/3', metadata: {} },
        ],
      },
      { events: [{ eventType: 'page_visit', eventValue: '/p/2', metadata: {} }] },
    ]);
  });

  it('sends after the delay, and with sendBeacon when the page is hidden (falling back to a send)', async () => {
    vi.useFakeTimers();
    const send = vi.fn(async (_batch: unknown) => undefined);
    const beacon = vi.fn((_batch: unknown) => false);
    const batcher = createEventBatcher({ send, beacon, delayMs: 1_000 });
    batcher.add(entry('a', 1));
    vi.advanceTimersByTime(1_000);
    expect(send).toHaveBeenCalledTimes(1);
    batcher.add(entry('a', 2));
    batcher.flushOnHide();
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });
});
