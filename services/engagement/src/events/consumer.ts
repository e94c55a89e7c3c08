import {
  type Consumer,
  createConsumer,
  type DocumentStore,
  type EventBus,
  type EventHandler,
  type Logger,
  topicFor,
} from '@nudge/platform';

export const ENGAGEMENT_GROUP = 'engagement';
export const CONSUMED_TOPICS = [topicFor('auth'), topicFor('content')];

/** One consumer over auth's and content's topics (directory, post copy, site settings, reading history). */
export function createEngagementConsumer(opts: {
  store: DocumentStore;
  bus: EventBus;
  handlers: Record<string, EventHandler>;
  /** Types whose handler tolerates a repeat: no processed id is kept for them (see createConsumer). */
  idempotentTypes?: readonly string[];
  log: Logger;
}): Consumer {
  return createConsumer({
    store: opts.store,
    bus: opts.bus,
    groupId: ENGAGEMENT_GROUP,
    topics: CONSUMED_TOPICS,
    handlers: opts.handlers,
    ...(opts.idempotentTypes ? { idempotentTypes: opts.idempotentTypes } : {}),
    log: opts.log.child({ part: 'consumer' }),
  });
}
