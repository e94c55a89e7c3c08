import type {
  AuthResponse as AuthResponseSchema,
  IsAuthResponse as IsAuthResponseSchema,
  MessageResponse as MessageResponseSchema,
  NotificationDetailsResponse as NotificationDetailsResponseSchema,
  NotificationDetails as NotificationDetailsSchema,
  ProfileInfo as ProfileInfoSchema,
  SessionResponse as SessionResponseSchema,
  UserResponse as UserResponseSchema,
} from '@nudge/contracts';
import type { z } from 'zod';

/** The /api/user shapes, as types only (no zod at run time). */
export type { User } from '@nudge/contracts';
export type AuthResponse = z.output<typeof AuthResponseSchema>;
export type SessionResponse = z.output<typeof SessionResponseSchema>;
export type IsAuthResponse = z.output<typeof IsAuthResponseSchema>;
export type UserResponse = z.output<typeof UserResponseSchema>;
export type MessageResponse = z.output<typeof MessageResponseSchema>;
export type ProfileInfo = z.input<typeof ProfileInfoSchema>;
export type NotificationDetails = z.output<typeof NotificationDetailsSchema>;
export type NotificationDetailsResponse = z.output<typeof NotificationDetailsResponseSchema>;
