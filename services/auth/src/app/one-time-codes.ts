import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { DocumentStore } from '@nudge/platform';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_ATTEMPTS = 5;

type CodeDoc = { _id: string; hash: string; expiresAt: number; attempts: number };

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'missing' | 'locked';

/**
 * Six-digit one-time codes, one live code per purpose key (e.g. `email:a@b.c`). Stored only as an HMAC
 * keyed by a server secret, so a copy of the database does not reveal them; 10-minute expiry, 5 attempts.
 */
export function createOneTimeCodes(
  store: DocumentStore,
  secret: string,
  clock: () => Date = () => new Date(),
) {
  const codes = store.collection<CodeDoc>('one_time_codes');
  const hash = (key: string, code: string) =>
    createHmac('sha256', secret).update(`${key}:${code}`).digest('hex');

  return {
    async issue(key: string): Promise<string> {
      const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
      await codes.replaceOne(
        { _id: key },
        { _id: key, hash: hash(key, code), expiresAt: clock().getTime() + CODE_TTL_MS, attempts: 0 },
        { upsert: true },
      );
      return code;
    },

    /** Checks a code; a right code is spent, a wrong one costs an attempt, the fifth wrong one locks the code. */
    async check(key: string, code: string): Promise<CodeCheck> {
      const doc = await codes.findOneAndUpdate({ _id: key }, { $inc: { attempts: 1 } });
      if (!doc) return 'missing';
      if (doc.expiresAt <= clock().getTime()) {
        await codes.deleteOne({ _id: key });
        return 'expired';
      }
      if (doc.attempts > MAX_ATTEMPTS) {
        await codes.deleteOne({ _id: key });
        return 'locked';
      }
      const given = Buffer.from(hash(key, code));
      const stored = Buffer.from(doc.hash);
      if (given.length === stored.length && timingSafeEqual(given, stored)) {
        await codes.deleteOne({ _id: key });
        return 'ok';
      }
      if (doc.attempts >= MAX_ATTEMPTS) await codes.deleteOne({ _id: key });
      return 'wrong';
    },
  };
}

export type OneTimeCodes = ReturnType<typeof createOneTimeCodes>;

export const CODE_MESSAGES: Record<Exclude<CodeCheck, 'ok'>, string> = {
  wrong: 'Invalid OTP! Please enter Correct OTP',
  expired: 'This code has expired; please ask for a new one',
  missing: 'There is no code waiting for this address; please ask for a new one',
  locked: 'Too many wrong codes; please ask for a new one',
};
