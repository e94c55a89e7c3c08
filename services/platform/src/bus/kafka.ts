import { randomUUID } from 'node:crypto';
import {
  type Admin,
  type Consumer,
  type ConsumerConfig,
  type ConsumerRunConfig,
  Kafka,
  type KafkaMessage,
  type LogEntry,
  logLevel,
  Partitioners,
  type Producer,
  type SASLOptions,
} from 'kafkajs';
import type { Logger } from 'pino';
import type {
  BatchHandler,
  BatchOptions,
  BusMessage,
  DeadLetter,
  EventBus,
  MessageHandler,
  PublishResult,
  Subscription,
} from '../events/types';
import { processMetrics } from '../metrics';
import {
  attempt,
  deadLetterTopic,
  errorText,
  forGroup,
  REPLAY_GROUP_HEADER,
  type RetryHooks,
  retryPolicy,
  splitBatch,
} from './dead-letter';
import { assertWireMessage, headersToStrings } from './serialise';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** The kafkajs client to use (tests watch it); default one made from the options below. */
  client?: Kafka;
  /** TLS to the brokers: true (system CAs) or the CA's PEM. */
  ssl?: true | { ca: string[] };
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  log: Logger;
  /** Partitions of topics this bus creates (default 3): at least the most replicas a consumer group runs. */
  partitions?: number;
  /** Replicas of each partition of topics this bus creates (default -1: the broker's default.replication.factor). */
  replicationFactor?: number;
  /** min.insync.replicas of topics this bus creates (unset: the broker's default). */
  minInsyncReplicas?: number;
  /**
   * A consumer with no progress for this long (a handler in progress, no fetch) is stalled and started again
   * (default 5 minutes: longer than a handler's retries with their backoff take).
   */
  stallMs?: number;
  /** Backoff after a throwing handler: starts at retryBaseMs, doubles, capped at retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Attempts of a message (or batch) before it goes to the group's dead-letter topic (default 8). */
  maxAttempts?: number;
  /**
   * Per-message subscriptions: partitions handled at the same time by one consumer (kafkajs's
   * partitionsConsumedConcurrently; default 1). Keys keep their order: a key always lands on one partition.
   */
  lanes?: number;
}

/** Headers a dead letter carries on its topic besides the original message's. */
const DLQ = {
  group: 'nudge-dlq-group',
  topic: 'nudge-dlq-topic',
  key: 'nudge-dlq-key',
  partition: 'nudge-dlq-partition',
  offset: 'nudge-dlq-offset',
  error: 'nudge-dlq-error',
  attempts: 'nudge-dlq-attempts',
  firstFailedAt: 'nudge-dlq-first-failed-at',
  deadAt: 'nudge-dlq-dead-at',
} as const;
const DLQ_PREFIX = deadLetterTopic('');

const toPinoLogCreator =
  (log: Logger) =>
  () =>
  ({ namespace, level, log: entry }: LogEntry) => {
    const { message, ...extra } = entry;
    const fields = { ...extra, namespace };
    if (level === logLevel.ERROR) log.error(fields, message);
    else if (level === logLevel.WARN) log.warn(fields, message);
    else if (level === logLevel.INFO) log.info(fields, message);
    else log.debug(fields, message);
  };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** kafkajs errors (and the errors behind a KafkaJSNumberOfRetriesExceeded or an aggregate), innermost last. */
function errorChain(err: unknown): { type?: string; retriable?: boolean; name?: string }[] {
  const out: { type?: string; retriable?: boolean; name?: string }[] = [];
  const walk = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 5) return;
    out.push(e as { type?: string; retriable?: boolean });
    walk((e as { cause?: unknown }).cause, depth + 1);
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) walk(inner, depth + 1);
  };
  walk(err, 0);
  return out;
}

/** Whether kafkajs would try the operation again (its KafkaJSError class is not a named export under ESM). */
const retriable = (err: unknown) => errorChain(err).every((e) => e.retriable !== false);

/** The broker's answers that no retry changes: the message itself is refused. */
const REFUSED_FOR_GOOD = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD']);
const refusedForGood = (err: unknown) => errorChain(err).some((e) => REFUSED_FOR_GOOD.has(e.type ?? ''));

/**
 * The production event bus on Kafka (kafkajs).
 * - One idempotent producer (acks = all, one request in flight so retries cannot reorder a partition).
 *   Its retries are bounded so a broker outage surfaces as a failed publish (the relay backs off and
 *   retries; consumers deduplicate the rare re-send) instead of a publish that never returns.
 * - Messages are keyed by `key` (the stream id), so one aggregate's events share a partition and keep order.
 * - subscribe: one kafkajs consumer per call, fromBeginning for a new group. The offset of a message is
 *   resolved (and auto-committed) only after the handler resolved; a throwing handler is retried in place
 *   with a backoff (heartbeating meanwhile), up to maxAttempts: then the message goes to the group's
 *   dead-letter topic `nudge.dlq.<group>` (original headers plus nudge-dlq-* ones) and the partition moves on.
 * - Dead-letter topics are compacted and keyed by the dead letter's id; a replay re-publishes the message to its
 *   topic (for its group only) and then writes a tombstone, so a dead letter is pending while its id's last
 *   record has a value. Listing reads the topic to its end with a throwaway consumer.
 * - Topics are created on first use (admin createTopics) with `partitions` partitions, `replicationFactor` replicas and
 *   `minInsyncReplicas` (KAFKA_TOPIC_PARTITIONS, KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS).
 */
export function createKafkaBus(opts: KafkaBusOptions): EventBus {
  const { log } = opts;
  const partitions = opts.partitions ?? 3;
  const stallMs = opts.stallMs ?? 5 * 60_000;
  // -1: the broker's default.replication.factor.
  const replicationFactor = opts.replicationFactor ?? -1;
  const { minInsyncReplicas } = opts;
  const policy = retryPolicy(opts);
  const kafka =
    opts.client ??
    new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      ...(opts.ssl ? { ssl: opts.ssl } : {}),
      ...(opts.sasl ? { sasl: opts.sasl as SASLOptions } : {}),
      logLevel: logLevel.WARN,
      logCreator: toPinoLogCreator(log.child({ component: 'kafkajs' })),
    });
  const knownTopics = new Set<string>();
  const consumers = new Set<Consumer>();
  /** The groups this process consumes for, and their topics (what lag() reports). */
  const joined = new Map<string, Set<string>>();
  let closed = false;

  let adminConnection: Promise<Admin> | undefined;
  const admin = () => {
    adminConnection ??= (async () => {
      const client = kafka.admin();
      await client.connect();
      return client;
    })().catch((err: unknown) => {
      adminConnection = undefined;
      throw err;
    });
    return adminConnection;
  };

  let producerConnection: Promise<Producer> | undefined;
  const producer = () => {
    producerConnection ??= (async () => {
      const client = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        retry: { retries: 5 },
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await client.connect();
      return client;
    })().catch((err: unknown) => {
      producerConnection = undefined;
      throw err;
    });
    return producerConnection;
  };

  /**
   * A topic's offsets (earliest and next per partition). kafkajs's fetchTopicOffsets gives up at once when a partition
   * has no leader yet (a topic just created, a leader moving during a broker restart) and keeps its stale metadata:
   * here the metadata is refreshed and the read tried again, a few times with a backoff.
   */
  const topicOffsets = async (topic: string) => {
    const client = await admin();
    for (let attemptNo = 1; ; attemptNo++) {
      try {
        return await client.fetchTopicOffsets(topic);
      } catch (err) {
        // kafkajs marks the errors worth retrying (its KafkaJSError class is not a named export under ESM).
        if (attemptNo >= 6 || (err as { retriable?: unknown }).retriable !== true) throw err;
        await sleep(50 * 2 ** attemptNo);
        await client.fetchTopicMetadata({ topics: [topic] }).catch(() => undefined);
      }
    }
  };

  /**
   * Creates the topics that do not exist yet. Every replica of every service does this at start, at the same moment
   * when a deployment rolls out: a topic another process is creating right now answers "already exists" or has no
   * leader for a moment, so a retriable answer is tried again (metadata refreshed, with a backoff) rather than
   * failing the start.
   */
  const ensureTopics = async (topics: string[]) => {
    const missing = topics.filter((t) => !knownTopics.has(t));
    if (missing.length === 0) return;
    const client = await admin();
    for (let attemptNo = 1; ; attemptNo++) {
      try {
        const existing = new Set(await client.listTopics());
        const toCreate = missing.filter((t) => !existing.has(t));
        if (toCreate.length > 0) {
          const created = await client.createTopics({
            topics: toCreate.map((topic) => ({
              topic,
              numPartitions: partitions,
              replicationFactor,
              configEntries: [
                ...(minInsyncReplicas !== undefined
                  ? [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }]
                  : []),
                ...(topic.startsWith(DLQ_PREFIX) ? [{ name: 'cleanup.policy', value: 'compact' }] : []),
              ],
            })),
            waitForLeaders: true,
          });
          if (created) log.info({ topics: toCreate, partitions, replicationFactor }, 'kafka: topics created');
        }
        // Another process may have created them a moment ago: answered once each has a leader.
        await client.fetchTopicMetadata({ topics: missing });
        break;
      } catch (err) {
        if (attemptNo >= 8 || (err as { retriable?: unknown }).retriable !== true) throw err;
        log.warn({ err, topics: missing, attempt: attemptNo }, 'kafka: topics not ready yet; trying again');
        await sleep(100 * 2 ** attemptNo);
      }
    }
    for (const t of missing) knownTopics.add(t);
  };

  /** Drops the cached producer (a new one gets a new producer id and fresh sequence numbers). */
  const resetProducer = async () => {
    const current = producerConnection;
    producerConnection = undefined;
    await current?.then((p) => p.disconnect()).catch(() => undefined);
  };

  /**
   * One batch to Kafka. A non-retriable error can leave the idempotent producer's state out of step with the broker's
   * (a refused batch's sequence numbers, an expired producer id: UNKNOWN_PRODUCER_ID, OUT_OF_ORDER_SEQUENCE_NUMBER),
   * and every later send of a cached producer would then fail the same way: the producer is dropped, and the next send
   * starts a new one.
   */
  const send = async (batch: BusMessage[]) => {
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of batch) {
      const list = byTopic.get(message.topic) ?? [];
      list.push(message);
      byTopic.set(message.topic, list);
    }
    await ensureTopics([...byTopic.keys()]);
    const client = await producer();
    try {
      await client.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, list]) => ({
          topic,
          messages: list.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } })),
        })),
      });
    } catch (err) {
      if (!retriable(err)) {
        log.warn({ err }, 'kafka: a send failed for good; the producer is replaced');
        await resetProducer();
      }
      throw err;
    }
  };

  /**
   * Publishes a batch. When the broker refuses a message for good (too large for the topic, a malformed record), the
   * batch is sent again one message at a time, in order, and the messages it refuses are returned as refused: they
   * would be refused at every retry, and must not hold back the messages behind them.
   */
  const publish = async (batch: BusMessage[]): Promise<PublishResult | undefined> => {
    if (closed) throw new Error('kafka bus is closed');
    for (const message of batch) assertWireMessage(message);
    if (batch.length === 0) return undefined;
    try {
      await send(batch);
      return undefined;
    } catch (err) {
      if (!refusedForGood(err)) throw err;
    }
    const refused: PublishResult['refused'] = [];
    for (const message of batch) {
      try {
        await send([message]);
      } catch (err) {
        if (!refusedForGood(err)) throw err;
        refused.push({ message, error: errorText(err) });
      }
    }
    return { refused };
  };

  /**
   * One consumer per subscription: joins the group, subscribes from the beginning, and runs the given run config
   * (which reads `stopping` to tell a shutdown from a failure, and calls `progress` as it handles messages).
   *
   * It keeps running whatever happens to it: kafkajs restarts a consumer after a retriable error but leaves it stopped
   * after any other (a CRASH event with restart: false), and nothing else would notice that the group no longer
   * consumes. Such a consumer is started again, as a new member of the group, with a backoff. A consumer that has a
   * handler in progress, or has fetched nothing, for `stallMs` is stalled (a handler waiting on a call that never
   * answers): logged, counted and started again the same way; the message it held is redelivered (handlers are
   * idempotent by event id).
   */
  const joinGroup = async (
    groupId: string,
    topics: string[],
    consumerConfig: Partial<ConsumerConfig>,
    runConfig: (
      isStopping: () => boolean,
      progress: () => void,
      handling: <T>(work: () => Promise<T>) => Promise<T>,
    ) => ConsumerRunConfig,
  ): Promise<Subscription> => {
    if (closed) throw new Error('kafka bus is closed');
    await ensureTopics(topics);
    let stopping = false;
    let consumer: Consumer | undefined;
    let lastProgress = Date.now();
    let restarts = 0;
    let restartTimer: NodeJS.Timeout | undefined;
    /** Handlers in progress: while one is, a fetch (kafkajs fetches ahead for other partitions) is not progress. */
    let inFlight = 0;
    const progress = () => {
      lastProgress = Date.now();
    };
    const fetched = () => {
      if (inFlight === 0) progress();
    };
    const handling = async <T>(work: () => Promise<T>): Promise<T> => {
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
      }
    };
    const start = async () => {
      const current = kafka.consumer({ groupId, allowAutoTopicCreation: false, ...consumerConfig });
      consumer = current;
      current.on(current.events.CRASH, (event) => {
        log.error(
          { err: event.payload.error, groupId, restart: event.payload.restart },
          'kafka: consumer crashed',
        );
        if (!event.payload.restart && consumer === current) restart('it stopped after an error');
      });
      // A fetch (with or without messages) is progress: the consumer is alive and not held by a handler.
      current.on(current.events.FETCH_START, fetched);
      await current.connect();
      consumers.add(current);
      try {
        await current.subscribe({ topics, fromBeginning: true });
        await current.run(runConfig(() => stopping, progress, handling));
        progress();
      } catch (err) {
        consumers.delete(current);
        await current.disconnect().catch(() => undefined);
        throw err;
      }
    };
    const restart = (why: string) => {
      if (stopping || closed || restartTimer) return;
      restarts += 1;
      const wait = Math.min(30_000, 500 * 2 ** Math.min(restarts, 6));
      processMetrics().consumerRestarts.inc({ group: groupId });
      log.error({ groupId, why, retryInMs: wait }, 'kafka: consumer stopped; starting it again');
      const old = consumer;
      consumer = undefined;
      if (old) consumers.delete(old);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        // Not awaited: a stalled consumer's disconnect waits for its handler, which may never return. The new
        // member gets the partitions once the old one's session times out.
        void old?.disconnect().catch(() => undefined);
        void (async () => {
          if (stopping || closed) return;
          lastProgress = Date.now();
          inFlight = 0;
          await start().then(
            () => {
              restarts = 0;
            },
            (err: unknown) => {
              log.error({ err, groupId }, 'kafka: starting the consumer again failed');
              restart('its restart failed');
            },
          );
        })();
      }, wait);
      restartTimer.unref();
    };
    const watchdog = setInterval(
      () => {
        if (consumer && Date.now() - lastProgress > stallMs) restart(`no progress for ${stallMs} ms`);
      },
      Math.min(stallMs, 30_000),
    );
    watchdog.unref();
    const groupTopics = joined.get(groupId) ?? new Set<string>();
    for (const topic of topics) groupTopics.add(topic);
    joined.set(groupId, groupTopics);
    try {
      await start();
    } catch (err) {
      clearInterval(watchdog);
      throw err;
    }
    let left = false;
    return {
      async close() {
        if (left) return;
        left = true;
        stopping = true;
        clearInterval(watchdog);
        if (restartTimer) clearTimeout(restartTimer);
        const current = consumer;
        consumer = undefined;
        if (current) {
          consumers.delete(current);
          await current.disconnect();
        }
      },
    };
  };

  const toBus = (topic: string, message: KafkaMessage): BusMessage => ({
    topic,
    key: message.key?.toString('utf8') ?? '',
    value: message.value?.toString('utf8') ?? '',
    headers: headersToStrings(message.headers),
  });

  /** Sends the message to the group's dead-letter topic (resolves once Kafka acknowledged it). */
  const sendDeadLetter = async (
    groupId: string,
    at: { topic: string; partition: number; offset: string },
    message: BusMessage,
    error: unknown,
    attempts: number,
    firstFailedAt: string,
  ) => {
    const topic = deadLetterTopic(groupId);
    await ensureTopics([topic]);
    const client = await producer();
    await client.send({
      topic,
      acks: -1,
      messages: [
        {
          key: `${groupId}:${at.topic}:${at.partition}:${at.offset}`,
          value: message.value,
          headers: {
            ...message.headers,
            [DLQ.group]: groupId,
            [DLQ.topic]: at.topic,
            [DLQ.key]: message.key,
            [DLQ.partition]: String(at.partition),
            [DLQ.offset]: at.offset,
            [DLQ.error]: errorText(error),
            [DLQ.attempts]: String(attempts),
            [DLQ.firstFailedAt]: firstFailedAt,
            [DLQ.deadAt]: new Date().toISOString(),
          },
        },
      ],
    });
    log.error(
      { err: error, groupId, ...at, key: message.key, attempts, deadLetterTopic: topic },
      'kafka: message dead-lettered after its last attempt; the partition moves on',
    );
  };

  const hooksFor = (
    stopping: () => boolean,
    heartbeat: () => Promise<void>,
    fields: Record<string, unknown>,
    text: string,
    progress: () => void,
  ): RetryHooks => ({
    async sleep(ms) {
      await sleep(ms);
      // Retrying (or waiting out an outage) is progress: the stall watchdog is for handlers that never return.
      progress();
      // heartbeat throws when the group rebalances: the message then goes to the new owner
      if (!stopping()) await heartbeat();
    },
    stopped: stopping,
    onRetry: (err, attemptNo, retryInMs) => log.warn({ err, ...fields, attempt: attemptNo, retryInMs }, text),
  });

  const subscribe = (groupId: string, topics: string[], handler: MessageHandler): Promise<Subscription> =>
    joinGroup(groupId, topics, {}, (stopping, progress, handling) => ({
      partitionsConsumedConcurrently: Math.max(1, Math.floor(opts.lanes ?? 1)),
      autoCommit: true,
      autoCommitInterval: 1_000,
      eachMessage: ({ topic, partition, message, heartbeat }) =>
        handling(async () => {
          progress();
          const delivered = forGroup(toBus(topic, message), groupId);
          if (!delivered) return; // a replay for another group
          // Retried here rather than thrown to kafkajs (which would redeliver only after restarting the
          // consumer): the partition stays in place without a rebalance.
          const result = await attempt(
            () => handler(delivered),
            policy,
            hooksFor(
              stopping,
              heartbeat,
              { groupId, topic, partition, offset: message.offset },
              'kafka: handler failed; redelivering',
              progress,
            ),
          );
          if (!result) throw new Error('kafka: the subscription closed before the message was handled');
          if (!result.ok)
            await sendDeadLetter(
              groupId,
              { topic, partition, offset: message.offset },
              delivered,
              result.error,
              result.attempts,
              result.firstFailedAt,
            );
        }),
    }));

  const subscribeBatch = (
    groupId: string,
    topics: string[],
    handler: BatchHandler,
    options: BatchOptions = {},
  ): Promise<Subscription> => {
    const maxMessages = Math.max(1, options.maxMessages ?? 10_000);
    const maxWaitMs = Math.max(0, options.maxWaitMs ?? 1_000);
    const minBytes = Math.max(1, options.minBytes ?? 1);
    return joinGroup(
      groupId,
      topics,
      { maxWaitTimeInMs: maxWaitMs, minBytes },
      (stopping, progress, handling) => ({
        // Only resolved offsets are committed, and an offset is resolved after its batch's handler resolved.
        autoCommit: true,
        autoCommitThreshold: 1,
        eachBatchAutoResolve: false,
        eachBatch: ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning }) =>
          handling(async () => {
            const all = batch.messages;
            for (let start = 0; start < all.length && isRunning(); start += maxMessages) {
              progress();
              const slice = all.slice(start, start + maxMessages);
              const mine = slice.flatMap((message) => {
                const delivered = forGroup(toBus(batch.topic, message), groupId);
                return delivered ? [{ message, delivered }] : [];
              });
              type Item = (typeof mine)[number];
              const handle = (items: Item[]) => handler(items.map((item) => item.delivered));
              const hooks = hooksFor(
                stopping,
                heartbeat,
                { groupId, topic: batch.topic, partition: batch.partition, size: mine.length },
                'kafka: batch handler failed; redelivering',
                progress,
              );
              if (mine.length > 0) {
                const result = await attempt(() => handle(mine), policy, hooks);
                if (!result) throw new Error('kafka: the subscription closed before the batch was handled');
                if (!result.ok) {
                  const { attempts, firstFailedAt } = result;
                  const settled = await splitBatch(
                    mine,
                    result.error,
                    handle,
                    (item, error) =>
                      sendDeadLetter(
                        groupId,
                        { topic: batch.topic, partition: batch.partition, offset: item.message.offset },
                        item.delivered,
                        error,
                        attempts,
                        firstFailedAt,
                      ),
                    stopping,
                  );
                  if (!settled)
                    throw new Error('kafka: the subscription closed before the batch was handled');
                }
              }
              // Committed only after the handler resolved (the insert is durable) or its failures were dead-lettered.
              resolveOffset((slice[slice.length - 1] as KafkaMessage).offset);
              await commitOffsetsIfNecessary();
              await heartbeat();
            }
          }),
      }),
    );
  };

  const toDeadLetter = (id: string, message: KafkaMessage): DeadLetter => {
    const headers = headersToStrings(message.headers);
    const original: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      if (!name.startsWith('nudge-dlq-')) original[name] = value;
    return {
      id,
      groupId: headers[DLQ.group] ?? '',
      message: {
        topic: headers[DLQ.topic] ?? '',
        key: headers[DLQ.key] ?? '',
        value: message.value?.toString('utf8') ?? '',
        headers: original,
      },
      partition: Number(headers[DLQ.partition] ?? 0),
      offset: headers[DLQ.offset] ?? '',
      error: headers[DLQ.error] ?? '',
      attempts: Number(headers[DLQ.attempts] ?? 0),
      firstFailedAt: headers[DLQ.firstFailedAt] ?? '',
      deadAt: headers[DLQ.deadAt] ?? '',
    };
  };

  /** Each dead-letter topic's letters as last read, with the offsets they were read up to. */
  const readCache = new Map<string, { offsets: string; letters: DeadLetter[] }>();

  /**
   * Reads a dead-letter topic to its current end (throwaway group): the pending dead letters, oldest first. A topic
   * whose offsets have not moved since the last read is answered from that read: every /metrics scrape asks, and
   * reading joins a consumer group (a join, a rebalance and a group to delete on the broker each time).
   */
  const readDeadLetters = async (topic: string): Promise<DeadLetter[]> => {
    const offsets = await topicOffsets(topic);
    const signature = JSON.stringify(offsets.map((p) => [p.partition, p.low, p.high]));
    const cached = readCache.get(topic);
    if (cached?.offsets === signature) return cached.letters;
    const letters = await readDeadLetterTopic(topic, offsets);
    readCache.set(topic, { offsets: signature, letters });
    return letters;
  };

  const readDeadLetterTopic = async (
    topic: string,
    offsets: { partition: number; low: string; high: string }[],
  ): Promise<DeadLetter[]> => {
    const client = await admin();
    const ends = new Map<number, bigint>();
    for (const p of offsets) if (BigInt(p.high) > BigInt(p.low)) ends.set(p.partition, BigInt(p.high));
    const latest = new Map<string, DeadLetter | null>();
    if (ends.size === 0) return [];
    const readerGroup = `nudge.dlq-reader.${randomUUID()}`;
    const reader = kafka.consumer({ groupId: readerGroup, allowAutoTopicCreation: false });
    await reader.connect();
    try {
      await reader.subscribe({ topics: [topic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`kafka: reading ${topic} did not reach its end in 60 s`)),
          60_000,
        );
        reader
          .run({
            autoCommit: false,
            eachMessage: async ({ partition, message }) => {
              const id = message.key?.toString('utf8') ?? '';
              latest.delete(id); // keeps the map in order of the last record per id
              latest.set(id, message.value ? toDeadLetter(id, message) : null);
              const end = ends.get(partition);
              if (end !== undefined && BigInt(message.offset) + 1n >= end) ends.delete(partition);
              if (ends.size === 0) {
                clearTimeout(timer);
                resolve();
              }
            },
          })
          .catch((err: unknown) => {
            clearTimeout(timer);
            reject(err);
          });
      });
    } finally {
      await reader.disconnect().catch(() => undefined);
      await client.deleteGroups([readerGroup]).catch(() => undefined);
    }
    return [...latest.values()].filter((letter): letter is DeadLetter => letter !== null);
  };

  const deadLetterTopics = async (groupId?: string): Promise<string[]> => {
    const all = (await (await admin()).listTopics()).filter((t) => t.startsWith(DLQ_PREFIX));
    return groupId === undefined ? all.sort() : all.filter((t) => t === deadLetterTopic(groupId));
  };

  const deadLetters = async (groupId?: string): Promise<DeadLetter[]> => {
    const letters: DeadLetter[] = [];
    for (const topic of await deadLetterTopics(groupId)) letters.push(...(await readDeadLetters(topic)));
    return letters;
  };

  const replayDeadLetters = async (groupId?: string): Promise<number> => {
    const letters = await deadLetters(groupId);
    const client = await producer();
    for (const letter of letters) {
      await publish([
        { ...letter.message, headers: { ...letter.message.headers, [REPLAY_GROUP_HEADER]: letter.groupId } },
      ]);
      // The tombstone: the dead letter is no longer pending.
      await client.send({
        topic: deadLetterTopic(letter.groupId),
        acks: -1,
        messages: [{ key: letter.id, value: null }],
      });
      log.info({ groupId: letter.groupId, topic: letter.message.topic }, 'kafka: dead letter replayed');
    }
    return letters.length;
  };

  return {
    kind: 'kafka',
    publish,
    subscribe,
    subscribeBatch,
    deadLetters,
    async lag() {
      const client = await admin();
      const lags: { groupId: string; topic: string; lag: number }[] = [];
      for (const [groupId, topics] of joined) {
        const committed = await client.fetchOffsets({ groupId, topics: [...topics] });
        for (const { topic, partitions: parts } of committed) {
          const ends = new Map((await topicOffsets(topic)).map((p) => [p.partition, p] as const));
          let lag = 0;
          for (const { partition, offset } of parts) {
            const end = ends.get(partition);
            if (!end) continue;
            // -1: nothing committed yet, so the whole retained log is ahead of the group.
            const from = Number(offset) >= 0 ? Number(offset) : Number(end.low);
            lag += Math.max(0, Number(end.high) - from);
          }
          lags.push({ groupId, topic, lag });
        }
      }
      return lags;
    },
    replayDeadLetters,
    async ping() {
      const cluster = await (await admin()).describeCluster();
      if (cluster.brokers.length === 0) throw new Error('kafka: no brokers in the cluster');
    },
    async close() {
      closed = true;
      const pending: Promise<unknown>[] = [...consumers].map((c) => c.disconnect());
      consumers.clear();
      if (producerConnection) pending.push(producerConnection.then((p) => p.disconnect()));
      if (adminConnection) pending.push(adminConnection.then((a) => a.disconnect()));
      producerConnection = undefined;
      adminConnection = undefined;
      const results = await Promise.allSettled(pending);
      for (const result of results) {
        if (result.status === 'rejected') log.warn({ err: result.reason }, 'kafka: error while closing');
      }
    },
  };
}
