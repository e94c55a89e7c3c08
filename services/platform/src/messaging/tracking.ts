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

/** The facts every tracking token of one send carries. */
export interface TrackingFacts {
  sendId: string;
  userId: string;
  channel: string;
  localDate: string;
  templateId: string;
  subjectId: string | null;
}

/** Bytes of a version-2 token's MAC: HMAC-SHA256 cut to 128 bits. */
const SHORT_MAC = 16;

/**
 * The tokens of one send (version 2): the payload is a JSON array in a fixed order, `[sendId, userId,
 * channel, localDate, templateId, subjectId]`, and for a click `[..., link, to]`; the MAC is HMAC-SHA256 cut to its
 * first 128 bits. The facts' JSON is written once per send. A version-1 token (`signTracking`: a JSON object and
 * the whole MAC) is still verified: the links of e-mails sent before stay valid. The key names and the second
 * half of the MAC were about 120 of a link's 850 characters, each link in the HTML and the text of every e-mail.
 */
export function trackingSigner(
  secret: Buffer,
  facts: TrackingFacts,
): { open(): string; click(link: string, to: string): string } {
  const json = JSON.stringify([
    facts.sendId,
    facts.userId,
    facts.channel,
    facts.localDate,
    facts.templateId,
    facts.subjectId,
  ]);
  const head = json.slice(0, -1);
  const sign = (payload: string) => {
    const body = Buffer.from(payload).toString('base64url');
    const mac = createHmac('sha256', secret).update(body).digest();
    return `${body}.${mac.toString('base64url', 0, SHORT_MAC)}`;
  };
  return {
    open: () => sign(json),
    click: (link, to) => sign(`${head},${JSON.stringify(link)},${JSON.stringify(to)}]`),
  };
}

/** The claims of a version-2 payload, named as a version-1 token names them; null when it has another shape. */
function claimsOfList(list: unknown[]): Record<string, unknown> | null {
  if (list.length !== 6 && list.length !== 8) return null;
  const [sendId, userId, channel, localDate, templateId, subjectId, link, to] = list;
  return {
    sendId,
    userId,
    channel,
    localDate,
    templateId,
    subjectId,
    ...(list.length === 8 ? { link, to } : {}),
  };
}

/**
 * The payload, or null when the token is malformed or its MAC does not match: a version-1 token (a JSON object, a
 * 256-bit MAC) or a version-2 one (a JSON array, 128 bits) as `trackingSigner` makes them; never one format with
 * the other's MAC length.
 */
export function verifyTracking(secret: Buffer, token: string): unknown | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  const mac = Buffer.from(token.slice(dot + 1), 'base64url');
  if (mac.length !== SHORT_MAC && mac.length !== 32) return null;
  const expected = createHmac('sha256', secret).update(body).digest().subarray(0, mac.length);
  if (!timingSafeEqual(mac, expected)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
  if (mac.length === SHORT_MAC) return Array.isArray(payload) ? claimsOfList(payload) : null;
  return Array.isArray(payload) ? null : payload;
}

/** The send key of (reader, local day, channel): first 32 hex chars of sha-256 (contracts/events-reminders). */
export const sendIdOf = (userId: string, localDate: string, channel: string) =>
  createHash('sha256').update(`${userId}|${localDate}|${channel}`).digest('hex').slice(0, 32);
