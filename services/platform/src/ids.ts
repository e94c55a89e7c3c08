import { randomBytes } from 'node:crypto';

/**
 * Random bytes drawn from the CSPRNG a pool at a time (one `randomBytes` call costs about as much as a thousand
 * bytes of output): each id or token takes the next unused bytes, so no byte serves twice.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;
function takeRandom(bytes: number): { from: Buffer; at: number } {
  if (bytes > POOL_BYTES) return { from: randomBytes(bytes), at: 0 };
  if (used + bytes > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const at = used;
  used += bytes;
  return { from: pool, at };
}
const randomHex = (bytes: number): string => {
  const { from, at } = takeRandom(bytes);
  return from.toString('hex', at, at + bytes);
};

/** The 8 hex digits of the seconds of `now`. */
const secondsHex = (now: Date) =>
  Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');

/** A 24-hex-digit id shaped like a MongoDB ObjectId: 4 bytes of seconds, then 8 random bytes. Sorts by creation time. */
export function newId(now: Date = new Date()): string {
  return secondsHex(now) + randomHex(8);
}

/** `count` ids of newId's shape for one instant, from one draw of random bytes (a batch of events). */
export function newIds(count: number, now: Date = new Date()): string[] {
  const seconds = secondsHex(now);
  const random = randomBytes(8 * count).toString('hex');
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = seconds + random.slice(16 * i, 16 * i + 16);
  return ids;
}

export const isId = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);

/** An unguessable random token (for check-in links, webhook dedup keys and the like). */
export const randomToken = (bytes = 24): string => {
  const { from, at } = takeRandom(bytes);
  return from.toString('base64url', at, at + bytes);
};
