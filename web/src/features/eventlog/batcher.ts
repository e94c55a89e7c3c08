import type { EventLogEntry } from './api';

type Batch = { token?: string; events: Omit<EventLogEntry, 'token'>[] };

/**
 * Collects analytics events and sends them in batches (`{ token, events }`, one batch per token): when maxEvents are
 * waiting, after delayMs, and with navigator.sendBeacon when the page is hidden (it survives the page closing).
 */
export function createEventBatcher(opts: {
  send: (batch: Batch) => Promise<unknown>;
  beacon?: (batch: Batch) => boolean;
  maxEvents?: number;
  delayMs?: number;
}) {
  const maxEvents = opts.maxEvents ?? 50;
  const delayMs = opts.delayMs ?? 2_000;
  let waiting: EventLogEntry[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const batches = (entries: EventLogEntry[]): Batch[] => {
    const byToken = new Map<string | undefined, Batch>();
    for (const { token, ...event } of entries) {
      const batch = byToken.get(token) ?? { ...(token ? { token } : {}), events: [] };
      batch.events.push(event);
      byToken.set(token, batch);
    }
    return [...byToken.values()];
  };

  const take = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const taken = waiting;
    waiting = [];
    return batches(taken);
  };

  const flush = async () => {
    await Promise.all(take().map((b) => opts.send(b).catch(() => undefined)));
  };

  return {
    add(entry: EventLogEntry) {
      waiting.push(entry);
      if (waiting.length >= maxEvents) void flush();
      else timer ??= setTimeout(() => void flush(), delayMs);
    },
    flush,
    /** The page is going away: hand everything to sendBeacon (falls back to a normal send). */
    flushOnHide() {
      for (const batch of take()) if (!opts.beacon?.(batch)) void opts.send(batch).catch(() => undefined);
    },
  };
}
