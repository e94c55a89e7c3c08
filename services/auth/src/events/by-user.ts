import type { EventEnvelope } from '@nudge/platform';

/**
 * The user an event of billing's or engagement's topic is about: auth's consumer handles the events of one user one
 * after another (createConsumer's serializeBy). They arrive on several streams at once (a stream per subscription,
 * per reminder send), and their handlers decide from the user's state: the role from all their subscriptions, the
 * cold / autoactive status from their unopened count.
 */
export const byUser = (event: EventEnvelope): string | undefined => {
  const userId = (event.data as { userId?: unknown } | null)?.userId;
  return typeof userId === 'string' ? `user:${userId}` : undefined;
};
