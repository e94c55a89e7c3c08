/**
 * A provider's "slow down" answer, which is not a failure: SMTP 421 (service not available, try later), 451 (local
 * error, try later: the usual greylisting and rate answer), 454 (temporary authentication failure, SES's rate
 * answer among others), or an HTTP 429 (Twilio, the WhatsApp Cloud API). Nodemailer puts the SMTP code in
 * `responseCode`; Twilio's errors carry `status`.
 */
export function isThrottled(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { responseCode, status } = err as { responseCode?: unknown; status?: unknown };
  return responseCode === 421 || responseCode === 451 || responseCode === 454 || status === 429;
}

/**
 * How long to wait before delivering a throttled message again (the attempt-th retry: `firstMs` doubling up to `maxMs`,
 * with full jitter so the lanes that were throttled together do not come back together), or null when `err` is not
 * a throttling answer. A `retryAfter` in seconds on the error (an HTTP Retry-After) is respected when longer.
 */
export function sendRetryAfterMs(
  err: unknown,
  attempt: number,
  firstMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number | null {
  if (!isThrottled(err)) return null;
  const ceiling = Math.min(maxMs, firstMs * 2 ** attempt);
  const backoff = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  const retryAfter = Number((err as { retryAfter?: unknown }).retryAfter);
  return Number.isFinite(retryAfter) && retryAfter * 1000 > backoff
    ? Math.min(retryAfter * 1000, maxMs)
    : backoff;
}
