import { ConcurrencyError } from '../errors';

/** Attempts of a command before its conflict is answered (409): enough for a burst of requests on one stream. */
export const CONFLICT_ATTEMPTS = 12;

/**
 * Runs a command (read the state, decide, append) again when its append lost a race: another request appended to the
 * same stream between its read and its write (ConcurrencyError). Every attempt reads and decides afresh, so the
 * outcome is the one the command would have had after the other request: use it where the decision is made on the
 * state as it is now, not on a version the client saw. Between attempts it waits a random while up to a bound that
 * doubles from 10 ms to at most 200 ms ("full jitter"), so contenders on one stream, in one process or many, do not
 * meet again in step: a burst of a few dozen requests on one stream gets through in a second or two. After
 * `attempts` the ConcurrencyError goes on: a 409 whose message says to try again.
 */
export async function retryOnConflict<T>(
  command: () => Promise<T>,
  attempts = CONFLICT_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await command();
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));
    }
  }
}
