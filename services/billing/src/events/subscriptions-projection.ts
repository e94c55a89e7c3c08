import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { evolve, STREAM_PREFIX, type SubscriptionState } from '../domain/subscription';

export const subscriptionsCollection = (store: DocumentStore): Collection<SubscriptionState> =>
  store.collection<SubscriptionState>('subscriptions');

/** The subscriptions read model: one document per subscription, the aggregate's folded state. */
export function createSubscriptionsProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void> } {
  const subscriptions = subscriptionsCollection(store);
  return {
    name: 'billing.subscriptions',
    async ensureIndexes() {
      await subscriptions.createIndex({ userId: 1, createdAt: -1 });
      await subscriptions.createIndex({ entitled: 1, endAt: 1 });
      await subscriptions.createIndex({ status: 1, createdAt: -1 });
      await subscriptions.createIndex({ email: 1 });
      await subscriptions.createIndex({ predecessorId: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith(STREAM_PREFIX)) return;
      const id = event.stream.slice(STREAM_PREFIX.length);
      const current = await subscriptions.findOne({ _id: id });
      if (current && current.version >= event.version) return;
      const next = evolve(current, event);
      if (next) await subscriptions.replaceOne({ _id: next._id }, next, { upsert: true });
    },
    async reset() {
      await subscriptions.drop();
    },
  };
}
