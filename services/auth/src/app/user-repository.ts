import { AuthEvents } from '@nudge/contracts';
import {
  type DocumentStore,
  DuplicateKeyError,
  type EventStore,
  newId,
  retryOnConflict,
} from '@nudge/platform';
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

  /**
   * Decides on the user as they are now and records the result; when another request changed the user meanwhile (a
   * sign-in, a profile change), decides again on the new state (retryOnConflict). `decide` may throw to refuse.
   * Null when there is no such user.
   */
  function update(
    userId: string,
    decide: (user: UserState) => DecidedEvent[],
    actor: string | null,
  ): Promise<UserState | null> {
    return retryOnConflict(async () => {
      const state = await get(userId);
      if (!state) return null;
      const decided = decide(state);
      if (decided.length === 0) return state;
      await events.append(userStream(userId), state.version, decided, { actor });
      const updated = await get(userId);
      if (!updated) throw new Error(`user ${userId} vanished after an append`);
      return updated;
    });
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

  return { users, get, many, byEmail, update, findOrRegister };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
