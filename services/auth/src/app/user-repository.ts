import { AuthEvents } from '@nudge/contracts';
import {
  type DecidedEvent,
  type DocumentStore,
  DuplicateKeyError,
  type EventStore,
  handleCommand,
  newId,
} from '@nudge/platform';
import {
  DEFAULT_NOTIFICATION_TIME,
  DEFAULT_TIME_ZONE,
  type Role,
  type UserState,
  userDecider,
  userStream,
} from '../domain/user';
import { createUserKeys, userKeysCollection } from '../events/user-keys';
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
 * Reads users from the read model (kept current by the projection right after each append); records changes as
 * commands on the user's stream, decided on the state the stream folds to.
 */
export function createUserRepository(store: DocumentStore, events: EventStore) {
  const users = usersCollection(store);
  const keys = createUserKeys(userKeysCollection(store));
  // E-mail uniqueness across streams: a claim document per e-mail, taken before the user's first event.
  const emailClaims = store.collection<{ _id: string; userId: string }>('email_claims');

  const get = async (userId: string): Promise<UserState | null> => users.findOne({ _id: userId });
  const many = async (userIds: string[]): Promise<UserState[]> => users.find({ _id: { $in: userIds } });
  const byEmail = async (email: string): Promise<UserState | null> => users.findOne({ email });

  /**
   * Decides on the user as they are now and records the result; when another request changed the user meanwhile (a
   * sign-in, a profile change), decides again on the new state. `decide` may throw to refuse.
   * Null when there is no such user.
   */
  async function update(
    userId: string,
    decide: (user: UserState) => readonly DecidedEvent[],
    actor: string | null,
  ): Promise<UserState | null> {
    const { state } = await handleCommand(
      events,
      userStream(userId),
      userDecider,
      (user) => (user ? decide(user) : []),
      { actor },
    );
    return state;
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
    const registered = {
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
    };
    // Someone else registered the same claim at the same moment: theirs stands.
    const { state, events: recorded } = await handleCommand(
      events,
      userStream(userId),
      userDecider,
      (user) => (user ? [] : [registered]),
      { actor: actor ?? userId },
    );
    if (!state) throw new Error(`user ${userId} missing after registration`);
    return { user: state, created: recorded.length > 0 };
  }

  return { users, keys, get, many, byEmail, update, findOrRegister };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
