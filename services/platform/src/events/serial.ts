/** Runs the functions handed to it one at a time, in call order (a promise-chain mutex). */
export function createSerial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** Exponential backoff: base, 2*base, 4*base ... capped. attempt is 1-based. */
export const backoffMs = (attempt: number, baseMs: number, capMs: number): number =>
  Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 20)));

/**
 * Keyed ordering with an exclusive mode: `byKey(key, fn)` runs one at a time per key while different keys run
 * concurrently; `exclusive(fn)` waits for everything running and holds off new work until it is done.
 */
export function createKeyedSerial(): {
  byKey<T>(key: string, fn: () => Promise<T>): Promise<T>;
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
} {
  const tails = new Map<string, Promise<unknown>>();
  const running = new Set<Promise<unknown>>();
  let gate: Promise<unknown> = Promise.resolve();
  return {
    byKey<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const before = Promise.all([gate, tails.get(key)]);
      const run = before.then(fn, fn);
      const settled = run.catch(() => undefined);
      tails.set(key, settled);
      running.add(settled);
      void settled.then(() => {
        running.delete(settled);
        if (tails.get(key) === settled) tails.delete(key);
      });
      return run;
    },
    exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const run = gate.then(async () => {
        await Promise.all(running);
        return fn();
      });
      gate = run.catch(() => undefined);
      return run;
    },
  };
}
