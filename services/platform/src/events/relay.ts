import type { Logger } from 'pino';
import type { DocumentStore } from '../store/types';
import { type CommitDoc, EVENTS, eventsOf } from './commits';
import { backoffMs, createSerial } from './serial';
import { type BusMessage, type EventBus, type EventEnvelope, topicFor } from './types';

export interface Relay {
  /** Publishes what is pending, then keeps publishing on notify() and on a slow poll. */
  start(): void;
  /** Stops the background publishing and waits for a publish in progress. */
  stop(): Promise<void>;
  /** Publishes everything pending now; rejects if the bus refuses (the commits stay pending). */
  flush(): Promise<number>;
  /** Wakes the relay (the event store calls it after each append). */
  notify(): void;
}

export interface RelayOptions {
  /** The service's document store (the one its event store writes to). */
  store: DocumentStore;
  /** When given, every append wakes the relay. */
  eventStore?: { onAppend(listener: () => void): () => void };
  bus: EventBus;
  service: string;
  log: Logger;
  /** Fallback poll interval (ms) for commits written by another process or missed notifications. */
  pollMs?: number;
  /** Commits per bus publish. */
  batchSize?: number;
  /** Backoff after a failed publish: starts at retryBaseMs, doubles, capped at retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export const toBusMessage = (topic: string, event: EventEnvelope): BusMessage => ({
  topic,
  key: event.stream,
  value: JSON.stringify(event),
  headers: {
    'event-id': event.id,
    'event-type': event.type,
    ...(event.meta.requestId ? { 'request-id': event.meta.requestId } : {}),
    ...(event.meta.traceparent ? { traceparent: event.meta.traceparent } : {}),
  },
});

/**
 * The outbox relay: the event store is the outbox. Publishes commits with published:false in commit
 * (seq) order, one bus message per event keyed by stream, then marks them published. At least once: a
 * crash between the publish and the mark publishes those commits again; consumers deduplicate by event id.
 */
export function createRelay(opts: RelayOptions): Relay {
  const { bus, log } = opts;
  const topic = topicFor(opts.service);
  const events = opts.store.collection<CommitDoc>(EVENTS);
  const pollMs = opts.pollMs ?? 1_000;
  const batchSize = opts.batchSize ?? 100;
  const retryBaseMs = opts.retryBaseMs ?? 200;
  const retryMaxMs = opts.retryMaxMs ?? 5_000;
  const serial = createSerial();

  /** Publishes pages of pending commits until none is left. Never runs twice at once. */
  const publishPending = () =>
    serial(async () => {
      let published = 0;
      for (;;) {
        const page = await events.find({ published: false }, { sort: { seq: 1 }, limit: batchSize });
        if (page.length === 0) return published;
        const messages = page.flatMap((commit) =>
          eventsOf(commit).map((event) => toBusMessage(topic, event)),
        );
        await bus.publish(messages);
        await events.updateMany({ _id: { $in: page.map((c) => c._id) } }, { $set: { published: true } });
        published += messages.length;
        log.debug({ topic, commits: page.length, events: messages.length }, 'relay published');
      }
    });

  let started = false;
  let running: Promise<void> | undefined;
  let again = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  const kick = (): void => {
    if (!started || retryTimer) return; // while backing off, the retry timer decides when to try again
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await publishPending();
          if (attempt > 0) log.info({ topic, attempts: attempt }, 'relay: the bus accepts events again');
          attempt = 0;
        } catch (err) {
          attempt += 1;
          const wait = backoffMs(attempt, retryBaseMs, retryMaxMs);
          log.warn({ err, topic, attempt, retryInMs: wait }, 'relay: publishing failed; events stay pending');
          if (started) {
            retryTimer = setTimeout(() => {
              retryTimer = undefined;
              kick();
            }, wait);
            retryTimer.unref();
          }
          return;
        }
      } while (again && started);
    })().finally(() => {
      running = undefined;
      if (again && started) kick(); // a notify that arrived while the loop was finishing
    });
  };

  return {
    start() {
      if (started) return;
      started = true;
      unsubscribe = opts.eventStore?.onAppend(() => kick());
      pollTimer = setInterval(kick, pollMs);
      pollTimer.unref();
      kick();
    },
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = undefined;
      if (pollTimer) clearInterval(pollTimer);
      if (retryTimer) clearTimeout(retryTimer);
      pollTimer = undefined;
      retryTimer = undefined;
      await running;
    },
    flush: () => publishPending(),
    notify: kick,
  };
}
