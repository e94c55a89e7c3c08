import { canonicalTimeZone } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { evolve, type UserState } from '../domain/user';
import { createUserKeys, userKeysCollection } from './user-keys';

export type UserDoc = UserState;

/** The distinct time zones readers are in (one small document each), so a slot's due query asks zone by zone. */
export const timeZonesCollection = (store: DocumentStore): Collection<{ _id: string; seen?: boolean }> =>
  store.collection<{ _id: string; seen?: boolean }>('user_time_zones');

export const usersCollection = (store: DocumentStore): Collection<UserDoc> =>
  store.collection<UserDoc>('users');

/**
 * The users read model: one document per user, the aggregate's folded state; beside it the set of zones readers are in,
 * which every reminder page walks (a zone no reader is in any more leaves the set), and the users' lookup keys for the
 * Users table's search and topic filter (./user-keys).
 */
export function createUsersProjection(store: DocumentStore): Projection & {
  ensureIndexes(): Promise<void>;
  sweepTimeZones(): Promise<void>;
} {
  const users = usersCollection(store);
  const zones = timeZonesCollection(store);
  const keyColl = userKeysCollection(store);
  const keys = createUserKeys(keyColl);
  const inZone = (zone: string) => users.findOne({ timeZone: zone }, { projection: { _id: 1 } });
  const keepZone = (zone: string) =>
    zones.updateOne({ _id: zone }, { $set: { seen: true } }, { upsert: true });

  /** Drops a zone no reader is in. A reader who moved into it meanwhile wrote their own document first: kept. */
  async function pruneZone(zone: string) {
    if (await inZone(zone)) return;
    await zones.deleteOne({ _id: zone });
    if (await inZone(zone)) await keepZone(zone);
  }

  return {
    name: 'auth.users',
    async ensureIndexes() {
      await users.createIndex({ email: 1 }, { unique: true });
      await users.createIndex({ createdAt: 1 });
      // The due readers of a slot: per (time, zone), in _id order (app/due-readers).
      await users.createIndex({ 'notiinfo.time': 1, timeZone: 1, _id: 1 });
      // Whether anyone is still in a zone a reader left; the Users table's time-zone filter.
      await users.createIndex({ timeZone: 1 });
      // The Users table: its sortable columns read a page in index order; its exact filters look rows up.
      for (const field of ['firstname', 'lastname', 'last_app_login', 'role', 'notification_status', 'type'])
        await users.createIndex({ [field]: 1 });
      await keys.ensureIndexes();
    },
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith('user-')) return;
      const current = await users.findOne({ _id: event.stream.slice(5) });
      if (current && current.version >= event.version) return;
      const next = evolve(current, event);
      if (!next) {
        // Erased: the reader's document goes (secure deletion zeroes its bytes in the store).
        if (current) await users.deleteOne({ _id: current._id });
        if (current) await pruneZone(current.timeZone);
        await keys.remove(event.stream.slice(5));
        return;
      }
      await users.replaceOne({ _id: next._id }, next as UserDoc, { upsert: true });
      await keys.write([next]);
      if (next.timeZone !== current?.timeZone) {
        await keepZone(next.timeZone);
        if (current) await pruneZone(current.timeZone);
      }
    },
    /**
     * Once at start: zones from before they were canonicalised become their one name (the users in them too, as a
     * rebuild would fold them), and zones no reader is in leave the set.
     */
    async sweepTimeZones() {
      for (const { _id: zone } of await zones.find({})) {
        const canonical = canonicalTimeZone(zone) ?? zone;
        if (canonical !== zone) {
          await keepZone(canonical);
          await users.updateMany({ timeZone: zone }, { $set: { timeZone: canonical } });
        }
        await pruneZone(zone);
      }
    },
    async reset() {
      await users.drop();
      await zones.drop();
      await keyColl.drop();
    },
  };
}
