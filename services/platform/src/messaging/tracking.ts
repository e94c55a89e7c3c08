import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Reminder tracking tokens (open image, click redirects, one-click unsubscribe): `<base64url JSON>.<base64url HMAC>`.
 * Only auth holds the private signing key, so these carry an HMAC keyed by a secret derived from the internal
 * credential (like auth's one-time-code secret): the sender signs, engagement (and auth) verify. A token proves
 * its payload was issued by us; it grants nothing beyond recording the fact it names and the redirect it carries.
 */
export const trackingSecret = (internalToken: string) =>
  createHmac('sha256', internalToken).update('reminder-tracking').digest();

export function signTracking(secret: Buffer, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** The payload, or null when the token is malformed or its HMAC does not match. */
export function verifyTracking(secret: Buffer, token: string): unknown | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  const mac = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(body).digest();
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

/** The send key of (reader, local day, channel): first 32 hex chars of sha-256 (contracts/events-reminders). */
export const sendIdOf = (userId: string, localDate: string, channel: string) =>
  createHash('sha256').update(`${userId}|${localDate}|${channel}`).digest('hex').slice(0, 32);
