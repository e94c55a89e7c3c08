import type { DocumentStore } from './store/types';

export interface WindowLimiter {
  /** Counts one hit for the key; false when the key is over its limit in the current window. */
  hit(key: string): Promise<boolean>;
}

export interface WindowCounter {
  /** Counts `by` hits (default one) for the key (one atomic $inc); the key's hits in the window and when it ends. */
  increment(key: string, by?: number): Promise<{ count: number; resetAt: Date }>;
  /** Takes `by` hits (default one) back (what the limiter is told not to count); never below 0. */
  decrement(key: string, by?: number): Promise<void>;
  /** Forgets the key's hits. */
  reset(key: string): Promise<void>;
}

type CounterDoc = { _id: string; key: string; count: number; windowStart: number };

/**
 * Fixed-window hit counters kept in the document store (collection `rate_<name>`), so every instance of a process
 * (every replica of a Deployment) counts into the same documents: one per key and window, `_id` = key|windowStart,
 * counted with an atomic upserting $inc. Old windows are deleted lazily, at most once per window per instance.
 */
export function createWindowCounter(
  store: DocumentStore,
  name: string,
  opts: { windowMs: number; clock?: () => Date },
): WindowCounter {
  const counters = store.collection<CounterDoc>(`rate_${name}`);
  const clock = opts.clock ?? (() => new Date());
  let lastSweep = 0;
  let indexes: Promise<unknown> | undefined;
  const windowOf = () => {
    const now = clock().getTime();
    return { now, windowStart: now - (now % opts.windowMs) };
  };
  return {
    async increment(key, by = 1) {
      const { now, windowStart } = windowOf();
      if (now - lastSweep > opts.windowMs) {
        lastSweep = now;
        indexes ??= Promise.all([counters.createIndex({ windowStart: 1 }), counters.createIndex({ key: 1 })]);
        await indexes;
        await counters.deleteMany({ windowStart: { $lt: windowStart } });
      }
      const doc = await counters.findOneAndUpdate(
        { _id: `${key}|${windowStart}` },
        { $inc: { count: by }, $setOnInsert: { windowStart, key } },
        { upsert: true },
      );
      return { count: doc?.count ?? by, resetAt: new Date(windowStart + opts.windowMs) };
    },
    async decrement(key, by = 1) {
      const { windowStart } = windowOf();
      await counters.updateOne(
        { _id: `${key}|${windowStart}`, count: { $gte: by } },
        { $inc: { count: -by } },
      );
    },
    async reset(key) {
      await counters.deleteMany({ key });
    },
  };
}

/** A limit over a shared window counter: at most `limit` hits per key and window across every instance. */
export function createWindowLimiter(
  store: DocumentStore,
  name: string,
  opts: { limit: number; windowMs: number; clock?: () => Date },
): WindowLimiter {
  const counter = createWindowCounter(store, name, opts);
  return {
    async hit(key) {
      return (await counter.increment(key)).count <= opts.limit;
    },
  };
}
