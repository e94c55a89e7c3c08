import type { Logger } from 'pino';
import { DuplicateKeyError } from '../errors';
import type { DocumentStore } from '../store/types';
import { PROCESSED_EVENTS } from './commits';
import type { BusMessage, EventBus, EventEnvelope, Subscription } from './types';

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface ConsumerOptions {
  /** The consuming service's own store (processed ids are recorded there). */
  store: DocumentStore;
  bus: EventBus;
  groupId: string;
  topics: string[];
  /** By event type; events of other types are recorded and otherwise ignored. */
  handlers: Record<string, EventHandler>;
  log: Logger;
}

export interface Consumer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

type ProcessedDoc = { _id: string; groupId: string; eventId: string; type: string; processedAt: string };

const parseEnvelope = (message: BusMessage): EventEnvelope | null => {
  try {
    const event = JSON.parse(message.value) as Partial<EventEnvelope> | null;
    if (
      !event ||
      typeof event.id !== 'string' ||
      typeof event.type !== 'string' ||
      typeof event.stream !== 'string'
    ) {
      return null;
    }
    return { ...event, meta: event.meta ?? {} } as EventEnvelope;
  } catch {
    return null;
  }
};

/**
 * An idempotent consumer: runs each event's handler at most once per group, recording the event id in
 * `processed_events` after the handler succeeded. A throwing handler is left to the bus to redeliver.
 * Note the record is written after the handler: a crash between the two runs the handler again on
 * redelivery, so handlers whose effect is not naturally idempotent should key their writes on event.id.
 */
export function createConsumer(opts: ConsumerOptions): Consumer {
  const { bus, groupId, handlers, log } = opts;
  const processed = opts.store.collection<ProcessedDoc>(PROCESSED_EVENTS);
  let subscription: Subscription | undefined;

  const handle = async (message: BusMessage): Promise<void> => {
    const event = parseEnvelope(message);
    if (!event) {
      // Redelivering a message that can never be parsed would block the topic forever.
      log.error(
        { topic: message.topic, key: message.key, groupId },
        'consumer: not an event envelope; skipped',
      );
      return;
    }
    const id = `${groupId}:${event.id}`;
    if (await processed.findOne({ _id: id })) {
      log.debug({ eventId: event.id, type: event.type, groupId }, 'consumer: duplicate delivery skipped');
      return;
    }
    const handler = handlers[event.type];
    if (handler) {
      try {
        await handler(event);
      } catch (err) {
        log.warn(
          { err, eventId: event.id, type: event.type, groupId },
          'consumer: handler failed; the bus redelivers',
        );
        throw err;
      }
    }
    try {
      await processed.insertOne({
        _id: id,
        groupId,
        eventId: event.id,
        type: event.type,
        processedAt: new Date().toISOString(),
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  };

  return {
    async start() {
      if (subscription) return;
      subscription = await bus.subscribe(groupId, opts.topics, handle);
      log.info({ groupId, topics: opts.topics }, 'consumer started');
    },
    async stop() {
      const current = subscription;
      subscription = undefined;
      await current?.close();
    },
  };
}
