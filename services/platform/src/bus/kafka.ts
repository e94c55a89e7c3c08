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
} from 'kafkajs';
import type { Logger } from 'pino';
import { backoffMs } from '../events/serial';
import type {
  BatchHandler,
  BatchOptions,
  BusMessage,
  EventBus,
  MessageHandler,
  Subscription,
} from '../events/types';
import { assertWireMessage, headersToStrings } from './serialise';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  log: Logger;
  /** Partitions of topics this bus creates (default 3). */
  partitions?: number;
  /** Backoff after a throwing handler: starts at retryBaseMs, doubles, capped at retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

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

/**
 * The production event bus on Kafka (kafkajs).
 * - One idempotent producer (acks = all, one request in flight so retries cannot reorder a partition).
 *   Its retries are bounded so a broker outage surfaces as a failed publish (the relay backs off and
 *   retries; consumers deduplicate the rare re-send) instead of a publish that never returns.
 * - Messages are keyed by `key` (the stream id), so one aggregate's events share a partition and keep order.
 * - subscribe: one kafkajs consumer per call, fromBeginning for a new group. The offset of a message is
 *   resolved (and auto-committed) only after the handler resolved; a throwing handler is retried in place
 *   with a backoff (heartbeating meanwhile), so the partition does not move past it.
 * - Topics are created on first use (admin createTopics) with `partitions` partitions.
 */
export function createKafkaBus(opts: KafkaBusOptions): EventBus {
  const { log } = opts;
  const partitions = opts.partitions ?? 3;
  const retryBaseMs = opts.retryBaseMs ?? 200;
  const retryMaxMs = opts.retryMaxMs ?? 5_000;
  const kafka = new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    logLevel: logLevel.WARN,
    logCreator: toPinoLogCreator(log.child({ component: 'kafkajs' })),
  });
  const knownTopics = new Set<string>();
  const consumers = new Set<Consumer>();
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

  const ensureTopics = async (topics: string[]) => {
    const missing = topics.filter((t) => !knownTopics.has(t));
    if (missing.length === 0) return;
    const client = await admin();
    const existing = new Set(await client.listTopics());
    const toCreate = missing.filter((t) => !existing.has(t));
    if (toCreate.length > 0) {
      await client.createTopics({
        topics: toCreate.map((topic) => ({ topic, numPartitions: partitions })),
        waitForLeaders: true,
      });
      log.info({ topics: toCreate, partitions }, 'kafka: topics created');
    }
    for (const t of missing) knownTopics.add(t);
  };

  const publish = async (batch: BusMessage[]): Promise<void> => {
    if (closed) throw new Error('kafka bus is closed');
    for (const message of batch) assertWireMessage(message);
    if (batch.length === 0) return;
    const byTopic = new Map<string, BusMessage[]>();
    for (const message of batch) {
      const list = byTopic.get(message.topic) ?? [];
      list.push(message);
      byTopic.set(message.topic, list);
    }
    await ensureTopics([...byTopic.keys()]);
    const client = await producer();
    await client.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } })),
      })),
    });
  };

  /**
   * One consumer per subscription: joins the group, subscribes from the beginning, and runs the given run config
   * (which reads `stopping` to tell a shutdown from a failure).
   */
  const joinGroup = async (
    groupId: string,
    topics: string[],
    consumerConfig: Partial<ConsumerConfig>,
    runConfig: (isStopping: () => boolean) => ConsumerRunConfig,
  ): Promise<Subscription> => {
    if (closed) throw new Error('kafka bus is closed');
    await ensureTopics(topics);
    const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, ...consumerConfig });
    let stopping = false;
    consumer.on(consumer.events.CRASH, (event) => {
      log.error(
        { err: event.payload.error, groupId, restart: event.payload.restart },
        'kafka: consumer crashed',
      );
    });
    await consumer.connect();
    consumers.add(consumer);
    try {
      await consumer.subscribe({ topics, fromBeginning: true });
      await consumer.run(runConfig(() => stopping));
    } catch (err) {
      consumers.delete(consumer);
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    let left = false;
    return {
      async close() {
        if (left) return;
        left = true;
        stopping = true;
        consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  };

  const toBus = (topic: string, message: KafkaMessage): BusMessage => ({
    topic,
    key: message.key?.toString('utf8') ?? '',
    value: message.value?.toString('utf8') ?? '',
    headers: headersToStrings(message.headers),
  });

  const subscribe = (groupId: string, topics: string[], handler: MessageHandler): Promise<Subscription> =>
    joinGroup(groupId, topics, {}, (stopping) => ({
      autoCommit: true,
      autoCommitInterval: 1_000,
      eachMessage: async ({ topic, partition, message, heartbeat }) => {
        const delivered = toBus(topic, message);
        for (let attempt = 1; ; attempt++) {
          try {
            await handler(delivered);
            return;
          } catch (err) {
            // Throwing to kafkajs would also redeliver (the offset is not resolved), but only after it
            // restarts the consumer; retrying here keeps the partition in place without a rebalance.
            if (stopping()) throw err;
            const wait = backoffMs(attempt, retryBaseMs, retryMaxMs);
            log.warn(
              { err, groupId, topic, partition, offset: message.offset, attempt, retryInMs: wait },
              'kafka: handler failed; redelivering',
            );
            await sleep(wait);
            if (stopping()) throw err;
            await heartbeat(); // throws when the group rebalances: the message then goes to the new owner
          }
        }
      },
    }));

  const subscribeBatch = (
    groupId: string,
    topics: string[],
    handler: BatchHandler,
    options: BatchOptions = {},
  ): Promise<Subscription> => {
    const maxMessages = Math.max(1, options.maxMessages ?? 10_000);
    const maxWaitMs = Math.max(0, options.maxWaitMs ?? 1_000);
    return joinGroup(groupId, topics, { maxWaitTimeInMs: maxWaitMs }, (stopping) => ({
      // Only resolved offsets are committed, and an offset is resolved after its batch's handler resolved.
      autoCommit: true,
      autoCommitThreshold: 1,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning }) => {
        const all = batch.messages;
        for (let start = 0; start < all.length && isRunning(); start += maxMessages) {
          const slice = all.slice(start, start + maxMessages);
          const delivered = slice.map((message) => toBus(batch.topic, message));
          for (let attempt = 1; ; attempt++) {
            try {
              await handler(delivered);
              break;
            } catch (err) {
              if (stopping()) throw err;
              const wait = backoffMs(attempt, retryBaseMs, retryMaxMs);
              log.warn(
                { err, groupId, topic: batch.topic, partition: batch.partition, attempt, retryInMs: wait },
                'kafka: batch handler failed; redelivering',
              );
              await sleep(wait);
              if (stopping()) throw err;
              await heartbeat();
            }
          }
          // Committed only after the handler resolved (the insert is durable).
          resolveOffset((slice[slice.length - 1] as KafkaMessage).offset);
          await commitOffsetsIfNecessary();
          await heartbeat();
        }
      },
    }));
  };

  return {
    kind: 'kafka',
    publish,
    subscribe,
    subscribeBatch,
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
