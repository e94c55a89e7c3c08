import { z } from 'zod';
import { NotificationStatus } from './auth';
import { Role } from './common';

/** Events of the auth service, on topic nudge.auth.events; stream = `user-<id>`. */
export const AuthEvents = {
  UserRegistered: {
    type: 'auth.UserRegistered.v1',
    data: z.object({
      userId: z.string(),
      email: z.string(),
      source: z.enum(['self', 'admin', 'google']),
      role: Role,
      type: z.union([z.literal(0), z.literal(1)]),
      notiinfo: z.object({ time: z.string(), active: z.boolean() }),
      topics: z.array(z.string()),
      timeZone: z.string(),
    }),
  },
  /** The user completed their profile (the spec's `verified`); e-mail ownership is proven by every sign-in. */
  UserVerified: {
    type: 'auth.UserVerified.v1',
    /** ageConfirmed: the reader confirmed they are at least 16 when they completed the profile themselves. */
    data: z.object({ userId: z.string(), email: z.string(), ageConfirmed: z.boolean().optional() }),
  },
  UserSignedIn: {
    type: 'auth.UserSignedIn.v1',
    data: z.object({ userId: z.string(), method: z.enum(['code', 'link', 'google', 'checkin']) }),
  },
  ProfileUpdated: {
    type: 'auth.ProfileUpdated.v1',
    data: z.object({
      userId: z.string(),
      firstname: z.string().optional(),
      lastname: z.string().optional(),
      topics: z.array(z.string()).optional(),
      timeZone: z.string().optional(),
      phone: z.string().optional(),
      type: z.union([z.literal(0), z.literal(1)]).optional(),
      category: z.string().optional(),
    }),
  },
  NotificationPreferencesChanged: {
    type: 'auth.NotificationPreferencesChanged.v1',
    data: z.object({
      userId: z.string(),
      notiinfo: z.object({ time: z.string(), active: z.boolean() }).optional(),
      enableEmail: z.boolean().optional(),
      enableWA: z.boolean().optional(),
      notification_status: NotificationStatus.optional(),
    }),
  },
  WhatsAppNumberVerified: {
    type: 'auth.WhatsAppNumberVerified.v1',
    data: z.object({ userId: z.string(), phone: z.string() }),
  },
  RoleChanged: {
    type: 'auth.RoleChanged.v1',
    data: z.object({ userId: z.string(), from: Role, to: Role, reason: z.string() }),
  },
  /**
   * Every session of the user issued at or before `before` (ISO time, millisecond precision) has ended: the user
   * signed out, or an admin ended their sessions. Every service's user copy keeps the latest `before` and refuses
   * older tokens.
   */
  SessionsRevoked: {
    type: 'auth.SessionsRevoked.v1',
    data: z.object({ userId: z.string(), before: z.string(), reason: z.enum(['logout', 'admin']) }),
  },
} as const;

export type AuthEventName = keyof typeof AuthEvents;
export type AuthEventData<K extends AuthEventName> = z.infer<(typeof AuthEvents)[K]['data']>;
