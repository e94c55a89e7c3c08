import { AuthEvents, canonicalTimeZone, ERASED_VALUE, ErasureEvents, eventData } from '@nudge/contracts';
import type { DecidedEvent, Decider } from '@nudge/platform';

export type Role = 'user' | 'premium' | 'admin';
export type NotificationStatus = 'active' | 'autoactive' | 'autppause' | 'manual';

/** The user aggregate's state, folded from its events; also the shape of the users read model. */
export interface UserState {
  _id: string;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  enableWA: boolean;
  enableEmail: boolean;
  notiinfo: { time: string; active: boolean };
  topics: string[];
  verified: boolean;
  role: Role;
  type: 0 | 1;
  notification_status: NotificationStatus;
  category: string;
  timeZone: string;
  source: 'self' | 'admin' | 'google';
  createdAt: string;
  last_app_login: string | null;
  /**
   * The address proved itself: the user entered a code, followed a sign-in link, signed in with Google, or an admin
   * added them (and vouches for them). Only proven users get reminders (asking for a code alone creates an account).
   */
  proven: boolean;
  /** Sessions issued at or before this time (ISO) are ended (logout, or an admin ended them); null = none ended. */
  sessionsRevokedBefore?: string | null;
  /** The stream version this state reflects. */
  version: number;
}

export interface StoredEvent {
  type: string;
  data: unknown;
  version: number;
  occurredAt: string;
}

export const DEFAULT_TIME_ZONE = 'UTC';
/** The read model's address of a reader whose address was erased (a reserved domain, never mailed). */
export const erasedAddress = (userId: string) => `${userId}@erased.invalid`;
export const DEFAULT_NOTIFICATION_TIME = '08:00';
export const userStream = (userId: string) => `user-${userId}`;

/** A zone as an event recorded it (events from before zones were canonicalised may hold a case variant). */
const oneZoneName = (timeZone: string) => canonicalTimeZone(timeZone) ?? timeZone;

/** Folds one event into the state. Pure: the time comes from the event. */
export function evolve(state: UserState | null, event: StoredEvent): UserState | null {
  const { type, version, occurredAt } = event;
  if (type === AuthEvents.UserRegistered.type) {
    const d = eventData(AuthEvents.UserRegistered, event);
    return {
      _id: d.userId,
      // An erased reader's address reads blank; addresses are unique in the read model, so a placeholder of its own.
      email: d.email === ERASED_VALUE ? erasedAddress(d.userId) : d.email,
      firstname: '',
      lastname: '',
      phone: '',
      enableWA: false,
      enableEmail: true,
      notiinfo: d.notiinfo,
      topics: d.topics,
      verified: false,
      role: d.role,
      type: d.type,
      notification_status: 'active',
      category: '',
      timeZone: oneZoneName(d.timeZone),
      source: d.source,
      createdAt: occurredAt,
      last_app_login: null,
      proven: d.source === 'admin' || d.source === 'google',
      version,
    };
  }
  if (!state) return null;
  // An erased reader has no state: nothing of theirs is decided on or shown again.
  if (type === ErasureEvents.ReaderErased.type) return null;
  const next: UserState = { ...state, version };
  switch (type) {
    case AuthEvents.UserVerified.type:
      next.verified = true;
      break;
    case AuthEvents.UserSignedIn.type:
      next.last_app_login = occurredAt;
      // Every sign-in method proves the address (a code or link reached it; Google vouches; a check-in link
      // was mailed to a proven address).
      next.proven = true;
      break;
    case AuthEvents.ProfileUpdated.type: {
      const { userId: _, ...changes } = eventData(AuthEvents.ProfileUpdated, event);
      Object.assign(next, definedOnly(changes));
      if (changes.timeZone !== undefined) next.timeZone = oneZoneName(changes.timeZone);
      break;
    }
    case AuthEvents.NotificationPreferencesChanged.type: {
      const { userId: _, ...changes } = eventData(AuthEvents.NotificationPreferencesChanged, event);
      Object.assign(next, definedOnly(changes));
      break;
    }
    case AuthEvents.WhatsAppNumberVerified.type:
      next.phone = eventData(AuthEvents.WhatsAppNumberVerified, event).phone;
      next.enableWA = true;
      break;
    case AuthEvents.RoleChanged.type:
      next.role = eventData(AuthEvents.RoleChanged, event).to;
      break;
    case AuthEvents.SessionsRevoked.type:
      next.sessionsRevokedBefore = eventData(AuthEvents.SessionsRevoked, event).before;
      break;
    default:
      return next;
  }
  return next;
}

export const foldUser = (events: StoredEvent[]): UserState | null =>
  events.reduce<UserState | null>((state, event) => evolve(state, event), null);

/** A decision on a user as their stream folds (null: not registered), e.g. `(u) => decideRoleChange(u, ...)`. */
export type UserDecision = (user: UserState | null) => readonly DecidedEvent[];

/** A user's rules: their state folds from their stream; a command is one of the decide functions below. */
export const userDecider: Decider<UserState | null, UserDecision> = {
  initialState: null,
  evolve,
  decide: (decision, user) => decision(user),
};

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What the profile form may change, and the events that say so (only what really changed). */
export interface ProfileChanges {
  firstname?: string;
  lastname?: string;
  topics?: string[];
  timeZone?: string;
  phone?: string;
  type?: 0 | 1;
  category?: string;
  notiinfo?: { time: string; active: boolean };
  enableEmail?: boolean;
  enableWA?: boolean;
  notification_status?: NotificationStatus;
}

export function decideProfileChange(state: UserState, changes: ProfileChanges): DecidedEvent[] {
  const profile: Record<string, unknown> = {};
  for (const key of ['firstname', 'lastname', 'timeZone', 'phone', 'type', 'category'] as const) {
    const value = changes[key];
    if (value !== undefined && value !== state[key]) profile[key] = value;
  }
  if (changes.topics && !sameList(changes.topics, state.topics)) profile.topics = unique(changes.topics);
  const prefs: Record<string, unknown> = {};
  if (
    changes.notiinfo &&
    (changes.notiinfo.time !== state.notiinfo.time || changes.notiinfo.active !== state.notiinfo.active)
  ) {
    prefs.notiinfo = changes.notiinfo;
  }
  for (const key of ['enableEmail', 'enableWA', 'notification_status'] as const) {
    const value = changes[key];
    if (value !== undefined && value !== state[key]) prefs[key] = value;
  }
  const events: DecidedEvent[] = [];
  if (Object.keys(profile).length)
    events.push({ type: AuthEvents.ProfileUpdated.type, data: { userId: state._id, ...profile } });
  if (Object.keys(prefs).length) {
    events.push({
      type: AuthEvents.NotificationPreferencesChanged.type,
      data: { userId: state._id, ...prefs },
    });
  }
  return events;
}

export function decideRoleChange(state: UserState, to: Role, reason: string): DecidedEvent[] {
  return state.role === to
    ? []
    : [{ type: AuthEvents.RoleChanged.type, data: { userId: state._id, from: state.role, to, reason } }];
}

/**
 * Ends every session of the user issued at or before `now` (logout ends all of them, not only the caller's: see
 * docs/ARCHITECTURE.md, "Tokens"). Never moves the time back.
 */
export function decideSessionsRevoked(
  state: UserState,
  now: Date,
  reason: 'logout' | 'admin',
): DecidedEvent[] {
  const current = state.sessionsRevokedBefore
    ? Date.parse(state.sessionsRevokedBefore)
    : Number.NEGATIVE_INFINITY;
  const before = new Date(Math.max(now.getTime(), current)).toISOString();
  return [{ type: AuthEvents.SessionsRevoked.type, data: { userId: state._id, before, reason } }];
}

/** Deletes the reader's account (the erasure event); a reader already erased is left as they are. */
export function decideErasure(
  state: UserState | null,
  by: 'self' | 'admin',
  adminId: string | null,
  now: Date,
): DecidedEvent[] {
  if (!state) return [];
  return [
    {
      type: ErasureEvents.ReaderErased.type,
      data: { userId: state._id, by, adminId, at: now.toISOString() },
    },
  ];
}

const unique = (xs: string[]) => [...new Set(xs)];
const sameList = (a: string[], b: string[]) => {
  const ua = unique(a);
  return ua.length === b.length && ua.every((x) => b.includes(x));
};
