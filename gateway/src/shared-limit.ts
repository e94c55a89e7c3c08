import { createWindowCounter, type DocumentStore } from '@nudge/platform';
import type { Store } from 'express-rate-limit';

/**
 * An express-rate-limit store over the document store's window counters (platform's createWindowCounter): every
 * gateway replica on the same store counts into the same per-client documents, so the limit holds for the cluster,
 * not per pod.
 */
export function sharedLimitStore(store: DocumentStore, name: string, windowMs: number): Store {
  const counter = createWindowCounter(store, name, { windowMs });
  return {
    localKeys: false,
    prefix: name,
    async increment(key) {
      const { count, resetAt } = await counter.increment(key);
      return { totalHits: count, resetTime: resetAt };
    },
    decrement: (key) => counter.decrement(key),
    resetKey: (key) => counter.reset(key),
  };
}
