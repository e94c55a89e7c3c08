import { backoffMs } from '../events/serial';
import type { BusMessage } from '../events/types';

/** Bounded redelivery: attempt 1 plus retries, backing off base, 2*base, 4*base ... capped at maxMs. */
export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseMs: 200, maxMs: 30_000 };

export const retryPolicy = (
  opts: { maxAttempts?: number; retryBaseMs?: number; retryMaxMs?: number },
  defaults: RetryPolicy = DEFAULT_RETRY,
): RetryPolicy => ({
  maxAttempts: Math.max(1, opts.maxAttempts ?? defaults.maxAttempts),
  baseMs: opts.retryBaseMs ?? defaults.baseMs,
  maxMs: opts.retryMaxMs ?? defaults.maxMs,
});

/**
 * Set on a replayed dead letter: the message went back on its topic for this group only; the other groups
 * of the topic skip it (they handled the original). Removed before the message reaches a handler.
 */
export const REPLAY_GROUP_HEADER = 'nudge-replay-group';

/** Kafka's dead-letter topic of a group. */
export const deadLetterTopic = (groupId: string): string => `nudge.dlq.${groupId}`;

/**
 * The message as this group's handler should see it, or undefined when it is a replay meant for another group.
 */
export function forGroup(message: BusMessage, groupId: string): BusMessage | undefined {
  const target = message.headers[REPLAY_GROUP_HEADER];
  if (target === undefined) return message;
  if (target !== groupId) return undefined;
  const { [REPLAY_GROUP_HEADER]: _replay, ...headers } = message.headers;
  return { ...message, headers };
}

/**
 * A message no retry can help: it is not an event, its data does not match its contract, its text is not valid
 * Unicode. A handler throws this to have the message dead-lettered at its first failure (set aside with this error and
 * counted) instead of after every attempt, during which the messages behind it wait.
 */
export class PoisonMessageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonMessageError';
  }
}

export const errorText = (err: unknown): string =>
  err instanceof Error ? `${err.name}: ${err.message}` : String(err);

/**
 * Thrown by a handler when the engine it writes to is down (reporting's ClickHouse), not because of the message:
 * the bus then waits and tries the same message or batch again, for as long as it takes, without counting attempts,
 * splitting the batch or dead-lettering anything. An outage pauses a consumer; it never empties it into its
 * dead-letter topic.
 */
export class EngineUnavailableError extends Error {
  readonly unavailable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineUnavailableError';
  }
}
/** By its mark rather than instanceof: the error may come from another copy of this module. */
export const isEngineUnavailable = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { unavailable?: unknown }).unavailable === true;

export type Attempted = { ok: true } | { ok: false; error: unknown; attempts: number; firstFailedAt: string };

export interface RetryHooks {
  /** Waits between attempts (adapters end it early on stop, Kafka heartbeats after it). */
  sleep(ms: number): Promise<void>;
  /** True once the subscription is closing: the attempts stop without a verdict. */
  stopped(): boolean;
  onRetry(err: unknown, attempt: number, retryInMs: number): void;
}

/**
 * Runs fn until it resolves or maxAttempts have failed, or it failed with a PoisonMessageError (then the caller
 * dead-letters). Returns undefined when the subscription stopped in between (nothing is decided: the message comes
 * again on the next start).
 */
export async function attempt(
  fn: () => Promise<void>,
  policy: RetryPolicy,
  hooks: RetryHooks,
): Promise<Attempted | undefined> {
  let firstFailedAt: string | undefined;
  let waits = 0;
  for (let n = 1; ; n++) {
    if (hooks.stopped()) return undefined;
    try {
      await fn();
      return { ok: true };
    } catch (error) {
      if (isEngineUnavailable(error)) {
        // Not an attempt: the same again once the engine answers (the backoff capped as for attempts).
        n -= 1;
        waits += 1;
        const wait = backoffMs(waits, policy.baseMs, policy.maxMs);
        hooks.onRetry(error, n, wait);
        await hooks.sleep(wait);
        continue;
      }
      firstFailedAt ??= new Date().toISOString();
      if (n >= policy.maxAttempts || error instanceof PoisonMessageError)
        return { ok: false, error, attempts: n, firstFailedAt };
      const wait = backoffMs(n, policy.baseMs, policy.maxMs);
      hooks.onRetry(error, n, wait);
      await hooks.sleep(wait);
    }
  }
}

/**
 * After a batch failed every attempt (with `error` last): finds the messages that fail on their own by halving
 * (left half first, so the order of the rest is kept) and hands each to deadLetter; the others are handled once
 * more in sub-batches. Returns false when stopped midway.
 */
export async function splitBatch<T>(
  items: T[],
  error: unknown,
  handle: (items: T[]) => Promise<void>,
  deadLetter: (item: T, error: unknown) => Promise<void>,
  stopped: () => boolean,
): Promise<boolean> {
  if (items.length === 1) {
    await deadLetter(items[0] as T, error);
    return true;
  }
  const middle = Math.ceil(items.length / 2);
  for (const half of [items.slice(0, middle), items.slice(middle)]) {
    if (half.length === 0) continue;
    for (;;) {
      if (stopped()) return false;
      try {
        await handle(half);
      } catch (halfError) {
        // An outage that began while splitting: wait for the engine rather than blame the messages.
        if (isEngineUnavailable(halfError)) {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          continue;
        }
        if (!(await splitBatch(half, halfError, handle, deadLetter, stopped))) return false;
      }
      break;
    }
  }
  return true;
}

/** Dead letters counted per group, as /readyz and the replay command show them. */
export function countDeadLetters(letters: { groupId: string }[]): {
  total: number;
  groups: Record<string, number>;
} {
  const groups: Record<string, number> = {};
  for (const { groupId } of letters) groups[groupId] = (groups[groupId] ?? 0) + 1;
  return { total: letters.length, groups };
}
