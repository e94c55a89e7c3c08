import type { Logger } from 'pino';
import type { EventBus } from '../events/types';
import type { DocumentStore } from '../store/types';
import { createInProcessBus } from './in-process';

export {
  countDeadLetters,
  deadLetterTopic,
  EngineUnavailableError,
  errorText,
  isEngineUnavailable,
  PoisonMessageError,
  REPLAY_GROUP_HEADER,
} from './dead-letter';
export {
  BUS_DEAD_LETTERS,
  BUS_LOG,
  BUS_META,
  BUS_OFFSETS,
  createInProcessBus,
  DEFAULT_LANES,
  DEFAULT_LOG_RETENTION_MS,
  type InProcessBusOptions,
  trimBusLog,
} from './in-process';

import { createKafkaBus, type KafkaBusOptions } from './kafka';

export { assertWireMessage, headersToStrings } from './serialise';
export { createKafkaBus, type KafkaBusOptions };

export interface EventBusOptions {
  kind: 'inprocess' | 'kafka';
  /** Required for 'inprocess' (the bus log lives there; in the embedded topology, a store of its own). */
  store?: DocumentStore;
  /** Required for 'kafka'. */
  brokers?: string[];
  clientId: string;
  log: Logger;
  /** In-process bus fallback poll interval (ms). */
  pollMs?: number;
  /** Attempts before a message is dead-lettered, and the backoff between them (BUS_* in the config). */
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** In-process bus: how long a message every group consumed stays in the log (BUS_LOG_RETENTION_MS). */
  logRetentionMs?: number;
  /** Keys (in-process) or partitions (Kafka) a per-message subscription handles at the same time (BUS_LANES). */
  lanes?: number;
  /** Kafka: TLS and SASL (KAFKA_SSL*, KAFKA_SASL_*). */
  ssl?: KafkaBusOptions['ssl'];
  sasl?: KafkaBusOptions['sasl'];
  /** Kafka: how the topics it creates are laid out (KAFKA_TOPIC_PARTITIONS, KAFKA_REPLICATION_FACTOR, ...). */
  topics?: Pick<KafkaBusOptions, 'partitions' | 'replicationFactor' | 'minInsyncReplicas'>;
}

/** Builds the configured bus adapter (called from the composition root). */
export function createEventBus(opts: EventBusOptions): EventBus {
  const retry = {
    ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
    ...(opts.retryBaseMs !== undefined ? { retryBaseMs: opts.retryBaseMs } : {}),
    ...(opts.retryMaxMs !== undefined ? { retryMaxMs: opts.retryMaxMs } : {}),
    ...(opts.lanes !== undefined ? { lanes: opts.lanes } : {}),
  };
  if (opts.kind === 'inprocess') {
    if (!opts.store) throw new Error('event bus: kind inprocess needs a document store');
    return createInProcessBus({
      store: opts.store,
      pollMs: opts.pollMs,
      ...(opts.logRetentionMs !== undefined ? { logRetentionMs: opts.logRetentionMs } : {}),
      ...retry,
      log: opts.log.child({ component: 'bus' }),
    });
  }
  if (opts.kind === 'kafka') {
    if (!opts.brokers || opts.brokers.length === 0) throw new Error('event bus: kind kafka needs brokers');
    return createKafkaBus({
      brokers: opts.brokers,
      clientId: opts.clientId,
      ...(opts.ssl ? { ssl: opts.ssl } : {}),
      ...(opts.sasl ? { sasl: opts.sasl } : {}),
      ...opts.topics,
      ...retry,
      log: opts.log.child({ component: 'bus' }),
    });
  }
  throw new Error(`event bus: unknown kind ${String((opts as { kind: unknown }).kind)}`);
}
