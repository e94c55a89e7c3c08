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
  return signJson(secret, JSON.stringify(payload));
}

const signJson = (secret: Buffer, json: string): string => {
  const body = Buffer.from(json).toString('base64url');
  const mac = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${mac}`;
};

/**
 * Signs several tokens that share `facts` (one send's links): `sign(more)` is `signTracking(secret, { ...facts,
 * ...more })`, byte for byte, for keys of `more` that `facts` does not have. The JSON of `facts` is written once;
 * a reminder has about ten links, and stringifying the whole payload for each was most of a token's cost.
 */
export function trackingSigner(
  secret: Buffer,
  facts: Record<string, unknown>,
): (more: Record<string, string>) => string {
  const json = JSON.stringify(facts);
  const head = json.length > 2 ? `${json.slice(0, -1)},` : '{';
  return (more) => {
    let rest = '';
    for (const [key, value] of Object.entries(more)) {
      if (Object.hasOwn(facts, key)) return signTracking(secret, { ...facts, ...more });
      rest += `${rest ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(value)}`;
    }
    return signJson(secret, rest ? `${head}${rest}}` : json);
  };
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
