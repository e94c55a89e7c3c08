/** Runs the functions handed to it one at a time, in call order (a promise-chain mutex). */
export function createSerial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Runs the functions handed to it one at a time per key, in call order, and those of different keys concurrently
 * (for a projection that declares `concurrency: 'stream'` yet writes a document several streams share: it orders the
 * writes to that document itself).
 */
export function createKeyedSerial(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

/** Exponential backoff: base, 2*base, 4*base ... capped. attempt is 1-based. */
export const backoffMs = (attempt: number, baseMs: number, capMs: number): number =>
  Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 20)));
