import { AuthEvents } from '@nudge/contracts';
import { type DocumentStore, DuplicateKeyError, type EventStore, newId } from '@nudge/platform';
import {
  DEFAULT_NOTIFICATION_TIME,
  DEFAULT_TIME_ZONE,
  type DecidedEvent,
  type Role,
  type UserState,
  userStream,
} from '../domain/user';
import { usersCollection } from '../events/users-projection';

export interface Registration {
  email: string;
  source: 'self' | 'admin' | 'google';
  role?: Role;
  type?: 0 | 1;
  notiinfo?: { time: string; active: boolean };
  topics?: string[];
  timeZone?: string;
}

/**
 * Loads users from the read model (kept current by the projection right after each append) and
 * records changes as events on the user's stream, with the read model's version as the expected version.
 */
export function createUserRepository(store: DocumentStore, events: EventStore) {
  const users = usersCollection(store);
  // E-mail uniqueness across streams: a claim document per e-mail, taken before the user's first event.
  const emailClaims = store.collection<{ _id: string; userId: string }>('email_claims');

  const get = async (userId: string): Promise<UserState | null> => users.findOne({ _id: userId });
  const many = async (userIds: string[]): Promise<UserState[]> => users.find({ _id: { $in: userIds } });
  const byEmail = async (email: string): Promise<UserState | null> => users.findOne({ email });

  async function record(state: UserState, decided: DecidedEvent[], actor: string | null): Promise<UserState> {
    if (decided.length === 0) return state;
    await events.append(userStream(state._id), state.version, decided, { actor });
    const updated = await get(state._id);
    if (!updated) throw new Error(`user ${state._id} vanished after an append`);
    return updated;
  }

  /** Returns the user with this e-mail, registering them first if new. `created` says which. */
  async function findOrRegister(
    reg: Registration,
    actor: string | null,
  ): Promise<{ user: UserState; created: boolean }> {
    const existing = await byEmail(reg.email);
    if (existing) return { user: existing, created: false };
    let userId = newId();
    try {
      await emailClaims.insertOne({ _id: reg.email, userId });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const claim = await emailClaims.findOne({ _id: reg.email });
      const claimed = claim && (await get(claim.userId));
      if (claimed) return { user: claimed, created: false };
      // A claim left by a crash before the first event: finish that registration.
      userId = claim?.userId ?? userId;
    }
    try {
      await events.append(
        userStream(userId),
        0,
        [
          {
            type: AuthEvents.UserRegistered.type,
            data: {
              userId,
              email: reg.email,
              source: reg.source,
              role: reg.role ?? 'user',
              type: reg.type ?? 0,
              notiinfo: reg.notiinfo ?? { time: DEFAULT_NOTIFICATION_TIME, active: true },
              topics: reg.topics ?? [],
              timeZone: reg.timeZone ?? DEFAULT_TIME_ZONE,
            },
          },
        ],
        { actor: actor ?? userId },
      );
    } catch (err) {
      // Someone else registered the same claim at the same moment: theirs stands.
      const raced = await get(userId);
      if (raced) return { user: raced, created: false };
      throw err;
    }
    const user = await get(userId);
    if (!user) throw new Error(`user ${userId} missing after registration`);
    return { user, created: true };
  }

  return { users, get, many, byEmail, record, findOrRegister };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
