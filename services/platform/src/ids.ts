import { randomBytes } from 'node:crypto';

/** A 24-hex-digit id shaped like a MongoDB ObjectId: 4 bytes of seconds, then 8 random bytes. Sorts by creation time. */
export function newId(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

/** `count` ids of newId's shape for one instant, from one draw of random bytes (a batch of events). */
export function newIds(count: number, now: Date = new Date()): string[] {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  const random = randomBytes(8 * count).toString('hex');
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = seconds + random.slice(16 * i, 16 * i + 16);
  return ids;
}

export const isId = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);

/** An unguessable random token (for check-in links, webhook dedup keys and the like). */
export const randomToken = (bytes = 24): string => randomBytes(bytes).toString('base64url');
