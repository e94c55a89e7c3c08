import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 as hex, the way Razorpay signs webhooks (raw body, webhook secret) and checkout results (key secret). */
export const hmacHex = (payload: string | Buffer, secret: string): string =>
  createHmac('sha256', secret).update(payload).digest('hex');

/** Constant-time comparison of a given hex signature with the expected one. */
export function signatureMatches(payload: string | Buffer, given: unknown, secret: string): boolean {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = Buffer.from(hmacHex(payload, secret), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Razorpay checkout's handler signature for a subscription: HMAC(`payment_id|subscription_id`, key secret). */
export const checkoutSignature = (paymentId: string, subscriptionId: string, keySecret: string) =>
  hmacHex(`${paymentId}|${subscriptionId}`, keySecret);
