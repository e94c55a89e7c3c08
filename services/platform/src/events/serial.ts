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
