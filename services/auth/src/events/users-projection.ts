import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { evolve, type UserState } from '../domain/user';

export type UserDoc = UserState;

export const usersCollection = (store: DocumentStore): Collection<UserDoc> =>
  store.collection<UserDoc>('users');

/** The users read model: one document per user, the aggregate's folded state. */
export function createUsersProjection(store: DocumentStore): Projection & { ensureIndexes(): Promise<void> } {
  const users = usersCollection(store);
  return {
    name: 'auth.users',
    async ensureIndexes() {
      await users.createIndex({ email: 1 }, { unique: true });
      await users.createIndex({ createdAt: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith('user-')) return;
      const current = await users.findOne({ _id: event.stream.slice(5) });
      if (current && current.version >= event.version) return;
      const next = evolve(current, event);
      if (next) await users.replaceOne({ _id: next._id }, next as UserDoc, { upsert: true });
    },
    async reset() {
      await users.drop();
    },
  };
}
