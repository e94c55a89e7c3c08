import { randomBytes } from 'node:crypto';

/** A 24-hex-digit id shaped like a MongoDB ObjectId: 4 bytes of seconds, then 8 random bytes. Sorts by creation time. */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

export const isId = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);

/** An unguessable random token (for check-in links, webhook dedup keys and the like). */
export const randomToken = (bytes = 24): string => randomBytes(bytes).toString('base64url');
