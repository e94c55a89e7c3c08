import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { evolve, type UserState } from '../domain/user';

export type UserDoc = UserState;

/** The distinct time zones readers are in (one small document each), so a slot's due query asks zone by zone. */
export const timeZonesCollection = (store: DocumentStore): Collection<{ _id: string; seen?: boolean }> =>
  store.collection<{ _id: string; seen?: boolean }>('user_time_zones');

export const usersCollection = (store: DocumentStore): Collection<UserDoc> =>
  store.collection<UserDoc>('users');

/** The users read model: one document per user, the aggregate's folded state. */
export function createUsersProjection(store: DocumentStore): Projection & { ensureIndexes(): Promise<void> } {
  const users = usersCollection(store);
  const zones = timeZonesCollection(store);
  return {
    name: 'auth.users',
    async ensureIndexes() {
      await users.createIndex({ email: 1 }, { unique: true });
      await users.createIndex({ createdAt: 1 });
      // The due readers of a slot: per (time, zone), in _id order (app/due-readers).
      await users.createIndex({ 'notiinfo.time': 1, timeZone: 1, _id: 1 });
      // Replaced by the one above (session 6): a data directory from before still has it, and each user write paid it.
      await users.dropIndex({ 'notiinfo.time': 1, timeZone: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith('user-')) return;
      const current = await users.findOne({ _id: event.stream.slice(5) });
      if (current && current.version >= event.version) return;
      const next = evolve(current, event);
      if (!next) return;
      await users.replaceOne({ _id: next._id }, next as UserDoc, { upsert: true });
      if (next.timeZone !== current?.timeZone) {
        await zones.updateOne({ _id: next.timeZone }, { $set: { seen: true } }, { upsert: true });
      }
    },
    async reset() {
      await users.drop();
      await zones.drop();
    },
  };
}
