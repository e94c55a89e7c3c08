import { vi } from 'vitest';

/**
 * Waits until `check` holds, polling every `intervalMs` (vitest's `vi.waitFor` underneath); fails naming `what`
 * after `timeoutMs`. Tests wait on what they can observe, never a fixed sleep.
 */
export const until = (
  check: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<void> =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
