export {
  CONFLICT_RETRIES,
  type CommandOptions,
  type CommandResult,
  type DecidedEvent,
  type Decider,
  handleCommand,
  type SnapshotCommand,
  snapshotDecider,
  stateOf,
} from './command';
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
export * from './types';
