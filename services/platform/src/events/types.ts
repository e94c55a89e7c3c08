/**
 * The event mechanism (docs/ARCHITECTURE.md, "Event flow"). One envelope shape everywhere:
 * in the event store, on the bus and in consumers.
 */
export interface EventEnvelope<D = unknown> {
  /** Unique event id (consumers deduplicate by it). */
  id: string;
  /** Versioned type name from services/contracts, e.g. 'auth.UserRegistered.v1'. */
  type: string;
  /** The aggregate's stream id, e.g. 'user-65f0c2...'; the bus key. */
  stream: string;
  /** 1-based position of this event in its stream. */
  version: number;
  occurredAt: string;
  /** Who caused it: a user id, 'system', or null. */
  actor: string | null;
  data: D;
  /** traceparent: the W3C trace context of the request that appended it (docs/ARCHITECTURE.md, "Operations"). */
  meta: { requestId?: string; traceparent?: string };
}

/** What a command hands to append: the store fills id, stream, version, occurredAt and meta. */
export interface NewEvent<D = unknown> {
  type: string;
  data: D;
}

export interface AppendOptions {
  actor?: string | null;
  /** Defaults to the request id of the current request context. */
  requestId?: string;
}

/** One append of an appendMany. */
export interface AppendManyEntry {
  stream: string;
  expectedVersion: number;
  events: NewEvent[];
}

/** The outcome of one entry of an appendMany: its stored envelopes, or why it was refused (a ConcurrencyError). */
export type AppendManyResult = { ok: true; events: EventEnvelope[] } | { ok: false; error: Error };

export interface EventStore {
  /**
   * Appends the events as one atomic write, if and only if the stream is at expectedVersion
   * (0 = the stream must not exist). Throws ConcurrencyError otherwise. Then applies the registered
   * projections (read-your-writes) and wakes the relay. Returns the stored envelopes.
   */
  append(
    stream: string,
    expectedVersion: number,
    events: NewEvent[],
    options?: AppendOptions,
  ): Promise<EventEnvelope[]>;
  /**
   * Many appends in one go (e.g. one new stream per reminder sent): one sequence range, one insert of all the
   * commits, one projection pass and one `projected` mark. Each entry keeps append's rule on its own (an entry whose
   * stream is not at its expectedVersion is refused with a ConcurrencyError in its result, the others are written);
   * invalid events throw before anything is written. Results are in the entries' order.
   */
  appendMany(entries: AppendManyEntry[], options?: AppendOptions): Promise<AppendManyResult[]>;
  readStream(stream: string): Promise<EventEnvelope[]>;
  /** Every event in commit order (for rebuilds and catch-up). */
  readAll(): AsyncIterable<EventEnvelope>;
}

/**
 * A read model: applies events to documents it owns. apply must be idempotent per event
 * (the runner also skips events it knows it applied), and reset must drop everything apply wrote.
 */
export interface Projection {
  readonly name: string;
  /**
   * 'stream': apply only writes documents of the event's own stream (no document several streams share, or one it
   * only moves by commutative `$inc`, never read before the write), so the runner may apply commits of different
   * streams at once (each stream's still in order). Absent: one at a time (but see streamTypes).
   */
  readonly concurrency?: 'stream';
  /**
   * The event types apply takes per stream, as 'stream' promises, when concurrency is not 'stream' (e.g. content's
   * reads beside its feed order): a commit whose events are all of these types (and that every other projection takes
   * per stream) is applied concurrently with other streams' commits. Absent: none.
   */
  readonly streamTypes?: readonly string[];
  apply(event: EventEnvelope): Promise<void>;
  /**
   * Optional: applies events of new streams (each the first commit of its own stream, no two of one stream) in one
   * go, with the same outcome as apply on each in turn (e.g. one insertMany). The runner uses it for an appendMany of
   * new streams; after a failure it applies them one by one with apply.
   */
  applyMany?(events: EventEnvelope[]): Promise<void>;
  reset(): Promise<void>;
}

/** A bus message, serialised the same way by every adapter. */
export interface BusMessage {
  topic: string;
  key: string;
  /** JSON of the EventEnvelope. */
  value: string;
  headers: Record<string, string>;
}

export type MessageHandler = (message: BusMessage) => Promise<void>;

/** Receives a batch of one topic's messages in offset order; the batch is committed only after it resolves. */
export type BatchHandler = (messages: BusMessage[]) => Promise<void>;

export interface BatchOptions {
  /** At most this many messages per batch (default 10,000). */
  maxMessages?: number;
  /** A batch that is not full waits at most this long for more (ms, default 1,000). */
  maxWaitMs?: number;
  /**
   * Kafka: a fetch waits (up to maxWaitMs) until this many bytes are there (default 1: at once). The in-process bus
   * gathers a batch over maxWaitMs anyway.
   */
  minBytes?: number;
}

/** A message a group's handler kept failing on, set aside so the group moves on (docs/decisions/0006). */
export interface DeadLetter {
  /** Unique per group and original position, e.g. `${groupId}:${topic}:${partition}:${offset}`. */
  id: string;
  groupId: string;
  /** The original message (topic, key, value, headers) as the handler saw it. */
  message: BusMessage;
  /** Kafka partition (0 for the in-process bus) and offset of the original. */
  partition: number;
  offset: string;
  /** The last error, as text. */
  error: string;
  attempts: number;
  firstFailedAt: string;
  deadAt: string;
}

/** Messages a publish could never deliver, each with the bus's reason. */
export interface PublishResult {
  refused: { message: BusMessage; error: string }[];
}

/** How far a consumer group is behind on one topic. */
export interface ConsumerLag {
  groupId: string;
  topic: string;
  lag: number;
}

export interface Subscription {
  close(): Promise<void>;
}

/** The bus port: Kafka in production, in-process (durable, file-backed) embedded. */
export interface EventBus {
  readonly kind: string;
  /**
   * Resolves once the bus has durably accepted every message (Kafka: acks from all in-sync replicas), except the ones
   * it names as refused: messages the bus will never accept (too large for the topic, malformed), which a retry would
   * only refuse again. Rejects when it could not say (an outage): then any of them may have to be sent again.
   */
  publish(messages: BusMessage[]): Promise<PublishResult | undefined>;
  /**
   * Delivers each topic's messages in order per key to one member of the group, at least once; a handler
   * that throws gets the message again after a backoff, up to the bus's max attempts: then the message is
   * dead-lettered (deadLetters) and the group moves on, later messages of the same key included.
   * A new group starts at the beginning of the topics.
   */
  subscribe(groupId: string, topics: string[], handler: MessageHandler): Promise<Subscription>;
  /**
   * Like subscribe, but hands over batches (flushed at maxMessages or after maxWaitMs, whichever first); the
   * offsets of a batch are committed only after the handler resolves, and a throwing handler gets the same
   * messages again (perhaps batched differently). After the max attempts, the batch is split in halves to find
   * the messages that fail on their own: those are dead-lettered, the rest handled. A group subscribes either
   * per message or per batch.
   */
  subscribeBatch(
    groupId: string,
    topics: string[],
    handler: BatchHandler,
    options?: BatchOptions,
  ): Promise<Subscription>;
  /** The dead letters waiting for a replay, of one group or of all, oldest first per group. */
  deadLetters(groupId?: string): Promise<DeadLetter[]>;
  /**
   * Puts the dead letters (of one group or all) back on their topics for their group only (the other groups
   * skip them), then removes them; resolves to how many. Meant for after the handler was fixed.
   */
  replayDeadLetters(groupId?: string): Promise<number>;
  /** Messages each consumer group has not committed yet, per topic (for /metrics); absent = not measurable. */
  lag?(): Promise<ConsumerLag[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The topic a service publishes its events on. */
export const topicFor = (service: string): string => `nudge.${service}.events`;
