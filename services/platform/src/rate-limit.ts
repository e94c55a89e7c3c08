import type { DocumentStore } from './store/types';

export interface WindowLimiter {
  /** Counts one hit for the key; false when the key is over its limit in the current window. */
  hit(key: string): Promise<boolean>;
}

/**
 * A fixed-window counter kept in the document store, so every instance of a service shares it.
 * Old windows are deleted lazily.
 */
export function createWindowLimiter(
  store: DocumentStore,
  name: string,
  opts: { limit: number; windowMs: number; clock?: () => Date },
): WindowLimiter {
  const counters = store.collection<{ _id: string; count: number; windowStart: number }>(`rate_${name}`);
  const clock = opts.clock ?? (() => new Date());
  let lastSweep = 0;
  return {
    async hit(key) {
      const now = clock().getTime();
      const windowStart = now - (now % opts.windowMs);
      if (now - lastSweep > opts.windowMs) {
        lastSweep = now;
        await counters.deleteMany({ windowStart: { $lt: windowStart } });
      }
      const doc = await counters.findOneAndUpdate(
        { _id: `${key}|${windowStart}` },
        { $inc: { count: 1 }, $setOnInsert: { windowStart } },
        { upsert: true },
      );
      return (doc?.count ?? 1) <= opts.limit;
    },
  };
}
