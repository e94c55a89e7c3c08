/**
 * Spaces calls out to at most `perSecond` a second in this process (0: no limit): each call waits for its turn, one
 * turn every 1/perSecond s, bursts up to a tenth of a second's worth. `wait()` resolves when the call may go.
 */
export function rateLimiter(perSecond: number, now: () => number = () => performance.now()) {
  if (perSecond <= 0) return { wait: async () => undefined };
  const interval = 1000 / perSecond;
  const burst = Math.max(1, perSecond / 10) * interval;
  let next = 0;
  return {
    async wait(): Promise<void> {
      const t = now();
      const at = Math.max(next, t - burst);
      next = at + interval;
      if (at > t) await new Promise((resolve) => setTimeout(resolve, at - t));
    },
  };
}
