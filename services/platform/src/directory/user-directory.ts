import {
  AuthEvents,
  ERASED_VALUE,
  ErasureEvents,
  type EventDef,
  eventData,
  FORMER_READER,
  type Role,
} from '@nudge/contracts';
import type { z } from 'zod';
import type { EventHandler } from '../events/consumer';
import type { EventEnvelope } from '../events/types';
import type { CurrentUser } from '../http/auth';
import { keyringOf } from '../privacy/keyring';
import type { DocumentStore } from '../store/types';

/** What a service other than auth knows of a user: its own copy, kept from auth's events. */
export interface DirectoryUser {
  _id: string;
  email: string;
  firstname: string;
  lastname: string;
  role: Role;
  topics: string[];
  /** IANA time zone (day boundaries of streaks and today's post). */
  timeZone: string;
  notiinfo: { time: string; active: boolean };
  createdAt: string;
  /** Sessions issued at or before this time (ISO) are refused (auth.SessionsRevoked); absent = none ended. */
  sessionsRevokedBefore?: string;
  /** The auth stream version last applied (events older than this are duplicates). */
  version: number;
  /** The reader deleted their account: names read FORMER_READER, no address, every session refused. */
  erased?: boolean;
}

/** Every session of an erased reader is refused (a time no token is issued after). */
export const ERASED_SESSIONS_BEFORE = '9999-12-31T23:59:59.999Z';

export interface UserDirectory {
  /** Handlers for createConsumer on topicFor('auth'), keyed by event type. */
  handlers: Record<string, EventHandler>;
  byId(userId: string): Promise<DirectoryUser | null>;
  byIds(userIds: string[]): Promise<Map<string, DirectoryUser>>;
  byEmail(email: string): Promise<DirectoryUser | null>;
  /**
   * For authenticate(): the user's current role and session revocation time, or undefined when the user is not known
   * here yet.
   */
  currentUser(userId: string): Promise<CurrentUser | undefined>;
  ensureIndexes(): Promise<void>;
  /** Drops the copy (a rebuild re-reads auth's topic from the start with a new consumer group). */
  reset(): Promise<void>;
}

export const USER_DIRECTORY = 'directory_users';

/** An ISO revocation time as milliseconds, or null when there is none. */
export const revokedAt = (iso: string | null | undefined): number | null => {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
};

/**
 * The user directory a service keeps from auth's events (names, role, topics, time zone), so it never calls auth to
 * render. Idempotent and order-safe per user: an event at or below the stored version is a duplicate and ignored
 * (the bus keeps per-user order, the stream being the key).
 */
export function createUserDirectory(store: DocumentStore): UserDirectory {
  const users = store.collection<DirectoryUser>(USER_DIRECTORY);

  const on =
    <S extends z.ZodType<{ userId: string }>>(
      def: EventDef<S>,
      change: (current: DirectoryUser, data: z.infer<S>, event: EventEnvelope) => Partial<DirectoryUser>,
    ) =>
    async (event: EventEnvelope): Promise<void> => {
      const data = eventData(def, event);
      const current = await users.findOne({ _id: data.userId });
      if (!current || current.version >= event.version) return;
      await users.updateOne(
        { _id: data.userId, version: current.version },
        { $set: { ...change(current, data, event), version: event.version } },
      );
    };

  const handlers: Record<string, EventHandler> = {
    [AuthEvents.UserRegistered.type]: async (event) => {
      const data = eventData(AuthEvents.UserRegistered, event);
      const doc: DirectoryUser = {
        _id: data.userId,
        email: data.email,
        firstname: '',
        lastname: '',
        role: data.role,
        topics: data.topics,
        timeZone: data.timeZone,
        notiinfo: data.notiinfo,
        createdAt: event.occurredAt,
        version: event.version,
      };
      const current = await users.findOne({ _id: data.userId });
      if (current && current.version >= event.version) return;
      await users.replaceOne({ _id: data.userId }, doc, { upsert: true });
    },
    [AuthEvents.ProfileUpdated.type]: on(AuthEvents.ProfileUpdated, (_current, data) => ({
      ...(data.firstname !== undefined ? { firstname: data.firstname } : {}),
      ...(data.lastname !== undefined ? { lastname: data.lastname } : {}),
      ...(data.topics !== undefined ? { topics: data.topics } : {}),
      ...(data.timeZone !== undefined ? { timeZone: data.timeZone } : {}),
    })),
    [AuthEvents.NotificationPreferencesChanged.type]: on(
      AuthEvents.NotificationPreferencesChanged,
      (_current, data) => (data.notiinfo ? { notiinfo: data.notiinfo } : {}),
    ),
    [AuthEvents.RoleChanged.type]: on(AuthEvents.RoleChanged, (_current, data) => ({ role: data.to })),
    [AuthEvents.SessionsRevoked.type]: on(AuthEvents.SessionsRevoked, (_current, data) => ({
      sessionsRevokedBefore: data.before,
    })),
    [ErasureEvents.ReaderErased.type]: async (event) => {
      await on(ErasureEvents.ReaderErased, () => ({
        email: ERASED_VALUE,
        firstname: FORMER_READER,
        lastname: ERASED_VALUE,
        sessionsRevokedBefore: ERASED_SESSIONS_BEFORE,
        erased: true,
      }))(event);
      // A key another process forgot is dropped here too (the cache would otherwise hold it up to a minute).
      keyringOf(store).evict(eventData(ErasureEvents.ReaderErased, event).userId);
      // What the copy held is zeroed in the store's files (secure deletion), the log checkpointed away.
      await store.scrub?.();
    },
    // Events that change nothing here still advance the version, so later events are not mistaken for gaps.
    [AuthEvents.UserVerified.type]: on(AuthEvents.UserVerified, () => ({})),
    [AuthEvents.UserSignedIn.type]: on(AuthEvents.UserSignedIn, () => ({})),
    [AuthEvents.WhatsAppNumberVerified.type]: on(AuthEvents.WhatsAppNumberVerified, () => ({})),
  };

  return {
    handlers,
    byId: (userId) => users.findOne({ _id: userId }),
    async byIds(userIds) {
      const unique = [...new Set(userIds)];
      const found = unique.length ? await users.find({ _id: { $in: unique } }) : [];
      return new Map(found.map((u) => [u._id, u]));
    },
    byEmail: (email) => users.findOne({ email: email.toLowerCase() }),
    async currentUser(userId) {
      const user = await users.findOne({ _id: userId });
      return user
        ? { role: user.role, sessionsRevokedBefore: revokedAt(user.sessionsRevokedBefore) }
        : undefined;
    },
    async ensureIndexes() {
      await users.createIndex({ email: 1 });
    },
    reset: () => users.drop(),
  };
}
