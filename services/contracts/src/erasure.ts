import { z } from 'zod';
import { IdParams } from './auth';
import type { RouteContract, RouteSchemas } from './route-types';

/**
 * Erasure of a reader (crypto-shredding). Events are immutable, so the personal fields of an event are stored sealed
 * with a key of the reader they belong to (one key per reader, in one key store); erasing the reader forgets the key.
 * From then on every reader of the events (projections, rebuilds, consumers, the analytics store, the bus's retained
 * messages) sees those fields as unreadable, and reads them as the empty string.
 */

/** The events of erasure, on auth's topic; stream = `user-<id>`. */
export const ErasureEvents = {
  /**
   * The reader's account is deleted: their key is forgotten, every session and e-mailed link stops working, every
   * service blanks its copy of their personal fields. `by` is who asked: the reader, or an admin (their id).
   */
  ReaderErased: {
    type: 'auth.ReaderErased.v1',
    data: z.object({
      userId: z.string(),
      by: z.enum(['self', 'admin']),
      adminId: z.string().nullable(),
      at: z.string(),
    }),
  },
} as const;

export type ReaderErasedData = z.infer<(typeof ErasureEvents)['ReaderErased']['data']>;

/**
 * The personal fields of each event type and the field naming the reader whose key seals them. Only these fields are
 * sealed; every other field stays readable after an erasure (ids, amounts, dates, choices).
 */
export const PERSONAL_FIELDS: ReadonlyMap<string, { owner: string; fields: readonly string[] }> = new Map([
  ['auth.UserRegistered.v1', { owner: 'userId', fields: ['email'] }],
  ['auth.UserVerified.v1', { owner: 'userId', fields: ['email'] }],
  ['auth.ProfileUpdated.v1', { owner: 'userId', fields: ['firstname', 'lastname', 'phone'] }],
  ['auth.WhatsAppNumberVerified.v1', { owner: 'userId', fields: ['phone'] }],
  ['billing.SubscriptionActivated.v1', { owner: 'userId', fields: ['email'] }],
  ['billing.SubscriptionCreated.v1', { owner: 'userId', fields: ['email'] }],
  ['engagement.WebEvent.v1', { owner: 'userId', fields: ['userEmail'] }],
]);

/** A sealed value: `pii1.<owner id, base64url>.<iv>.<ciphertext>.<tag>` (AES-256-GCM, base64url parts). */
export const SEALED_PREFIX = 'pii1.';

/** What a sealed value reads as once its reader's key is forgotten. */
export const ERASED_VALUE = '';

/** How a deleted reader's comments are signed. */
export const FORMER_READER = 'a former reader';

/** Erasure requests: the reader deletes their own account; an admin deletes a reader. */
export const EraseSelfBody = z.object({
  confirm: z.literal('DELETE', { message: 'type DELETE to confirm' }),
});
export const EraseAnswer = z.object({ status: z.literal(true), message: z.string() });

/** The erasure routes (auth), spread into the routing table and its schemas. */
export const ERASURE_ROUTES: RouteContract[] = [
  {
    method: 'POST',
    path: '/api/user/deleteaccount',
    service: 'auth',
    access: 'user',
    summary:
      'Delete the signed-in reader’s account: personal data made unreadable everywhere, sessions ended',
    source: 'reader.md §9',
  },
  {
    method: 'POST',
    path: '/api/user/delete/:id',
    service: 'auth',
    access: 'admin',
    summary: 'Delete a reader’s account (as the reader’s own deletion)',
    source: 'reader.md §9',
  },
];

export const ERASURE_SCHEMAS: RouteSchemas = {
  'POST /api/user/deleteaccount': { body: EraseSelfBody, response: EraseAnswer },
  'POST /api/user/delete/:id': { params: IdParams, response: EraseAnswer },
};
