import { checkEvent, EventEnvelopeSchema, UPCASTERS } from '@nudge/contracts';
import type { Logger } from 'pino';
import { PoisonMessageError } from '../bus/dead-letter';
import { DuplicateKeyError } from '../errors';
import { createKeyedQueue } from '../keyed-queue';
import { type Keyring, keyringOf } from '../privacy/keyring';
import type { DocumentStore } from '../store/types';
import { illFormedTextAt, illFormedTextMessage } from '../text';
import { withConsumerSpan } from '../tracing';
import { openEvents, PROCESSED_EVENTS } from './commits';
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
  /**
   * How long a processed event id is kept (default 7 days, Kafka's default retention: a redelivery older than
   * that cannot happen). Older ids are deleted now and then while the consumer works, so the collection stays
   * proportional to recent traffic instead of growing forever.
   */
  processedRetentionMs?: number;
  /**
   * Parses an event's data and brings it to its type's newest version. Default: checkEvent of the contracts. Only the
   * event mechanism's own tests, whose event types are not in the contracts, pass another.
   */
  check?: (type: string, data: unknown) => { type: string; data: unknown };
  /** For tests: the consumer's clock. */
  clock?: () => Date;
  /**
   * Event types whose handler is idempotent: delivered again, or late after newer events of its stream, it leaves
   * the same state (it sets a state guarded by the event's version, or recounts from states). No processed id is
   * read or recorded for them: two store operations fewer per message.
   */
  idempotentTypes?: readonly string[];
  /**
   * The bus hands events of different keys (streams) to the handlers at the same time (one key at a time per key).
   * Handlers whose state is shared by several streams (a user's counters fed by one stream per send, a user's
   * role fed by one stream per subscription) name that state here: events with the same name are handled one after
   * another in this process, in the order they reach the consumer. Undefined: no such constraint.
   */
  serializeBy?: (event: EventEnvelope) => string | undefined;
  /** Opens events' personal fields. Default: the one bound to the store (keyringOf). */
  keyring?: Keyring;
}

export interface Consumer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

type ProcessedDoc = { _id: string; groupId: string; eventId: string; type: string; processedAt: string };

const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** At most one expiry sweep per this long (and never more often than the retention itself). */
const SWEEP_EVERY_MS = 10 * 60_000;

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The message as an envelope (contracts' EventEnvelopeSchema), or null when it is not one. */
const parseEnvelope = (message: BusMessage): EventEnvelope | null => {
  let value: unknown;
  try {
    value = JSON.parse(message.value);
  } catch {
    return null;
  }
  const parsed = EventEnvelopeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/**
 * An idempotent consumer: runs each event's handler at most once per group, recording the event id in
 * `processed_events` after the handler succeeded. Events without a handler are skipped (nothing recorded; a message
 * whose `event-type` header names a type no handler takes, even after upcasting, is not even parsed), and the
 * types declared in `idempotentTypes` run without the record (their handlers tolerate a repeat). A throwing handler is left to the bus to redeliver (a bounded
 * number of times: then the bus dead-letters the message and the group moves on); a message that can never be
 * handled (PoisonMessageError) is dead-lettered at once.
 * Note the record is written after the handler: a crash between the two runs the handler again on
 * redelivery, so handlers whose effect is not naturally idempotent should key their writes on event.id.
 */
export function createConsumer(opts: ConsumerOptions): Consumer {
  const { bus, groupId, handlers, log } = opts;
  const processed = opts.store.collection<ProcessedDoc>(PROCESSED_EVENTS);
  const clock = opts.clock ?? (() => new Date());
  const check = opts.check ?? checkEvent;
  const keyring = opts.keyring ?? keyringOf(opts.store);
  const retentionMs = opts.processedRetentionMs ?? DEFAULT_RETENTION_MS;
  const sweepEveryMs = Math.min(SWEEP_EVERY_MS, retentionMs);
  const idempotent = new Set(opts.idempotentTypes ?? []);
  let subscription: Subscription | undefined;
  let lastSweep = clock().getTime();
  /** Handlings of one serializeBy name run one after another. */
  const inTurn = createKeyedQueue();
  /** By message type: whether it can reach a handler (its own type, or a newer one its upcasters lead to). */
  const reachesHandler = new Map<string, boolean>();
  const mayHandle = (type: string): boolean => {
    let reaches = reachesHandler.get(type);
    if (reaches === undefined) {
      reaches = false;
      const seen = new Set<string>();
      for (let t: string | undefined = type; t !== undefined && !seen.has(t); t = UPCASTERS.get(t)?.to) {
        seen.add(t);
        if (Object.hasOwn(handlers, t)) reaches = true;
      }
      reachesHandler.set(type, reaches);
    }
    return reaches;
  };

  /** Deletes this group's ids older than the retention, at most once per sweep interval (no timer: on traffic). */
  const expireOld = async (now: Date): Promise<void> => {
    if (now.getTime() - lastSweep < sweepEveryMs) return;
    lastSweep = now.getTime();
    const cutoff = new Date(now.getTime() - retentionMs).toISOString();
    try {
      const { deletedCount } = await processed.deleteMany({ groupId, processedAt: { $lt: cutoff } });
      if (deletedCount > 0) log.debug({ groupId, deletedCount }, 'consumer: expired processed event ids');
    } catch (err) {
      log.warn({ err, groupId }, 'consumer: expiring processed event ids failed; retried later');
    }
  };

  const handle = async (message: BusMessage): Promise<void> => {
    // A type no handler takes (e.g. auth's consumer and engagement's likes) is skipped by its header, unparsed.
    const type = message.headers['event-type'];
    if (type !== undefined && !mayHandle(type)) return;
    // A message no retry can help is set aside at once (dead-lettered with its error, counted), never handled: one
    // that is not an event, text that is not valid Unicode (no store keeps it as written), data that does not match
    // its contract (a producer defect: handlers see only data their schema accepts).
    const event = parseEnvelope(message);
    if (!event) throw new PoisonMessageError('not an event envelope');
    const illFormed = illFormedTextAt(event);
    if (illFormed !== undefined) throw new PoisonMessageError(illFormedTextMessage(illFormed, 'the event'));
    // The data is parsed with its contract and brought to the newest version of its type (upcasters).
    // Personal fields are opened with their reader's key (blank once the reader is erased).
    const [opened] = await openEvents(keyring, [event]);
    let current: EventEnvelope;
    try {
      current = { ...event, ...check(event.type, opened?.data) };
    } catch (err) {
      log.error(
        { err, eventId: event.id, type: event.type, groupId },
        'consumer: event does not match its contract',
      );
      throw new PoisonMessageError(`the event does not match its contract: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    const handler = handlers[current.type];
    // No handler: nothing to do, and nothing to remember (a redelivery is ignored again).
    if (!handler) return;
    const name = opts.serializeBy?.(current);
    const handling = () => run(message, event, current, handler);
    await (name === undefined ? handling() : inTurn(name, handling));
  };

  /** The handler, once per group (processed ids) unless its type is idempotent. */
  const run = async (
    message: BusMessage,
    event: EventEnvelope,
    current: EventEnvelope,
    handler: EventHandler,
  ): Promise<void> => {
    const recorded = !idempotent.has(current.type);
    const id = `${groupId}:${event.id}`;
    if (recorded && (await processed.findOne({ _id: id }))) {
      log.debug({ eventId: event.id, type: event.type, groupId }, 'consumer: duplicate delivery skipped');
      return;
    }
    try {
      await withConsumerSpan(
        `${groupId} ${event.type}`,
        message.headers,
        { 'messaging.consumer.group.name': groupId, 'messaging.destination.name': message.topic },
        () => handler(current),
      );
    } catch (err) {
      log.warn(
        { err, eventId: event.id, type: event.type, groupId },
        'consumer: handler failed; the bus redelivers',
      );
      throw err;
    }
    if (!recorded) return;
    const now = clock();
    try {
      await processed.insertOne({
        _id: id,
        groupId,
        eventId: event.id,
        type: event.type,
        processedAt: now.toISOString(),
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    await expireOld(now);
  };

  return {
    async start() {
      if (subscription) return;
      await processed.createIndex({ groupId: 1, processedAt: 1 });
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
