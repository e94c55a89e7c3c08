export {
  type CommitDoc,
  EVENTS,
  EVENTS_META,
  PENDING,
  type PendingDoc,
  type PendingKind,
  PROCESSED_EVENTS,
  PROJECTION_CHECKPOINTS,
  pendingRange,
  type StoredEvent,
} from './commits';
export { type Consumer, type ConsumerOptions, createConsumer, type EventHandler } from './consumer';
export { createEventStore, type EventStoreOptions, type ServiceEventStore } from './event-store';
export { eventHistoryHandler, type HistoryPage, readHistoryPage } from './history';
export { createProjectionRunner, type ProjectionRunner, type ProjectionRunnerOptions } from './projections';
export { createRelay, type Relay, type RelayOptions, toBusMessage } from './relay';
export { CONFLICT_ATTEMPTS, retryOnConflict } from './retry';
export * from './types';
