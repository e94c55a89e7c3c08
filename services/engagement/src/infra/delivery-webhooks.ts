import { createPublicKey, type KeyObject, timingSafeEqual, verify, X509Certificate } from 'node:crypto';
import type { DeliveryFactKind } from '@nudge/contracts';
import { badRequest, forbidden, unauthorized } from '@nudge/platform';
import { z } from 'zod';

/**
 * Mail providers' webhooks: each request's signature or credential is checked, then its events become delivery facts
 * (one per address), each with the provider's own event id so a redelivered event is recorded once.
 */
export interface WebhookFact {
  id: string;
  kind: DeliveryFactKind;
  channel: 'email';
  address: string;
  source: string;
  detail: string;
}

const parseJson = (raw: Buffer, what: string): unknown => {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest(`The ${what} body is not JSON`);
  }
};

const parseWith = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> => {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw badRequest(`The ${what} body is not one its provider sends: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
};

const fact = (
  source: string,
  id: string,
  kind: DeliveryFactKind,
  address: string,
  detail: string,
): WebhookFact => ({
  id,
  kind,
  channel: 'email',
  address: address.trim().toLowerCase(),
  source,
  detail: detail.slice(0, 1000),
});

// ── Amazon SES through SNS (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html) ──

/** SNS signs with a certificate it serves over HTTPS from its own regional hosts only. */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** A URL SNS itself serves: a signing certificate or a subscription confirmation. Anything else is never fetched. */
export const isSnsUrl = (raw: string, suffix = ''): boolean => {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && SNS_HOST.test(url.hostname) && url.pathname.endsWith(suffix);
  } catch {
    return false;
  }
};

const SnsMessage = z.object({
  Type: z.enum(['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation']),
  MessageId: z.string().min(1).max(200),
  TopicArn: z.string().min(1),
  Message: z.string(),
  Timestamp: z.string(),
  SignatureVersion: z.enum(['1', '2']),
  Signature: z.string().min(1),
  SigningCertURL: z.string(),
  Subject: z.string().nullish(),
  Token: z.string().optional(),
  SubscribeURL: z.string().optional(),
});
export type SnsMessage = z.infer<typeof SnsMessage>;

/** The text SNS signs: the message's fields in this order, each as "name\nvalue\n" (absent ones left out). */
const snsStringToSign = (m: SnsMessage) =>
  (m.Type === 'Notification'
    ? (['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const)
    : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const)
  )
    .filter((k) => m[k] !== undefined && m[k] !== null)
    .map((k) => `${k}\n${m[k]}\n`)
    .join('');

/**
 * Verifies an SNS message: from one of `topics`, signed with the key of the certificate at SigningCertURL (an SNS
 * host only; fetched once per URL). `get` fetches a URL's body (the certificate, the subscription confirmation).
 */
export function createSnsVerifier(deps: {
  topics: readonly string[];
  get: (url: string) => Promise<string>;
}) {
  const keys = new Map<string, Promise<KeyObject>>();
  const keyOf = (url: string) => {
    let key = keys.get(url);
    if (!key) {
      key = deps.get(url).then((pem) => new X509Certificate(pem).publicKey);
      keys.set(url, key);
      key.catch(() => keys.delete(url));
    }
    return key;
  };
  return {
    async verify(raw: Buffer): Promise<SnsMessage> {
      const message = parseWith(SnsMessage, parseJson(raw, 'SNS'), 'SNS');
      if (!deps.topics.includes(message.TopicArn))
        throw forbidden('The SNS topic is not one this service listens to');
      if (!isSnsUrl(message.SigningCertURL, '.pem'))
        throw forbidden('The SNS signing certificate is not served by Amazon SNS');
      let key: KeyObject;
      try {
        key = await keyOf(message.SigningCertURL);
      } catch {
        throw forbidden('The SNS signing certificate could not be read');
      }
      const algorithm = message.SignatureVersion === '1' ? 'sha1' : 'sha256';
      const signature = Buffer.from(message.Signature, 'base64');
      if (!verify(algorithm, Buffer.from(snsStringToSign(message)), key, signature))
        throw forbidden('The SNS message signature does not verify');
      return message;
    },
    /** Confirms a verified subscription by visiting its SubscribeURL (SNS's own host only). */
    async confirm(message: SnsMessage) {
      if (!message.SubscribeURL || !isSnsUrl(message.SubscribeURL))
        throw badRequest('The subscription confirmation has no SNS SubscribeURL');
      await deps.get(message.SubscribeURL);
    },
  };
}

const SesRecipients = z.array(z.object({ emailAddress: z.string(), diagnosticCode: z.string().optional() }));
const SesNotification = z.object({
  notificationType: z.string().optional(),
  eventType: z.string().optional(),
  bounce: z
    .object({
      bounceType: z.string(),
      bounceSubType: z.string().optional(),
      bouncedRecipients: SesRecipients,
    })
    .optional(),
  complaint: z
    .object({ complainedRecipients: SesRecipients, complaintFeedbackType: z.string().optional() })
    .optional(),
});

/** An SES notification (a bounce or a complaint; anything else says nothing about an address) as facts. */
export function sesFacts(message: SnsMessage): WebhookFact[] {
  const ses = parseWith(SesNotification, parseJson(Buffer.from(message.Message), 'SES notification'), 'SES');
  const type = ses.notificationType ?? ses.eventType;
  const id = (address: string) => `${message.MessageId}:${address.toLowerCase()}`;
  if (type === 'Bounce' && ses.bounce) {
    const { bounceType, bounceSubType } = ses.bounce;
    // Permanent: the address does not exist (or is on SES's own list); Transient and Undetermined may pass later.
    const kind = bounceType === 'Permanent' ? 'hard_bounce' : 'soft_bounce';
    return ses.bounce.bouncedRecipients.map((r) =>
      fact(
        'ses',
        id(r.emailAddress),
        kind,
        r.emailAddress,
        r.diagnosticCode ?? `${bounceType} ${bounceSubType ?? ''}`.trim(),
      ),
    );
  }
  if (type === 'Complaint' && ses.complaint) {
    const detail = ses.complaint.complaintFeedbackType ?? 'complaint';
    return ses.complaint.complainedRecipients.map((r) =>
      fact('ses', id(r.emailAddress), 'complaint', r.emailAddress, detail),
    );
  }
  return [];
}

// ── SendGrid's signed Event Webhook (https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features) ──

const SendGridEvents = z.array(
  z.looseObject({
    email: z.string(),
    event: z.string(),
    sg_event_id: z.string().min(1).max(200),
    type: z.string().optional(),
    reason: z.string().optional(),
  }),
);

/** SendGrid's `dropped` reasons that say something about the address itself. */
const DROPPED: Record<string, DeliveryFactKind> = {
  'Bounced Address': 'hard_bounce',
  'Spam Reporting Address': 'complaint',
  'Unsubscribed Address': 'unsubscribe',
  Invalid: 'invalid',
};

const sendGridKind = (e: z.infer<typeof SendGridEvents>[number]): DeliveryFactKind | undefined => {
  if (e.event === 'bounce') return e.type === 'blocked' ? 'soft_bounce' : 'hard_bounce';
  if (e.event === 'spamreport') return 'complaint';
  if (e.event === 'unsubscribe' || e.event === 'group_unsubscribe') return 'unsubscribe';
  if (e.event === 'dropped') return DROPPED[e.reason ?? ''];
  return undefined;
};

/**
 * Verifies SendGrid's ECDSA signature (P-256, SHA-256 over the timestamp header followed by the raw body) with the
 * account's verification key (base64 DER, as SendGrid shows it), then the events that concern an address as facts.
 */
export function createSendGridReceiver(publicKeyBase64: string) {
  const key = createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
  return (raw: Buffer, signature: string | undefined, timestamp: string | undefined): WebhookFact[] => {
    if (!signature || !timestamp) throw unauthorized('The SendGrid signature headers are missing');
    const signed = Buffer.concat([Buffer.from(timestamp), raw]);
    if (!verify('sha256', signed, key, Buffer.from(signature, 'base64')))
      throw forbidden('The SendGrid signature does not verify');
    return parseWith(SendGridEvents, parseJson(raw, 'SendGrid'), 'SendGrid').flatMap((e) => {
      const kind = sendGridKind(e);
      return kind ? [fact('sendgrid', e.sg_event_id, kind, e.email, e.reason ?? e.event)] : [];
    });
  };
}

// ── Postmark (https://postmarkapp.com/developer/webhooks/webhooks-overview), behind HTTP basic auth ──

const PostmarkRecord = z.looseObject({ RecordType: z.string() });
const PostmarkBounce = z.looseObject({
  ID: z.union([z.number(), z.string()]),
  Type: z.string(),
  Email: z.string(),
  Description: z.string().optional(),
  Details: z.string().optional(),
});
const PostmarkSubscriptionChange = z.looseObject({
  MessageID: z.string(),
  Recipient: z.string(),
  SuppressSending: z.boolean(),
  SuppressionReason: z.string().nullish(),
  ChangedAt: z.string(),
});

const POSTMARK_BOUNCES: Record<string, DeliveryFactKind> = {
  HardBounce: 'hard_bounce',
  BadEmailAddress: 'invalid',
  SpamComplaint: 'complaint',
  SoftBounce: 'soft_bounce',
  Transient: 'soft_bounce',
  DnsError: 'soft_bounce',
};

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Checks the basic-auth credential set in Postmark's webhook URL, then a bounce, complaint or opt-out as a fact. */
export function createPostmarkReceiver(credential: { user: string; password: string }) {
  const expected = `Basic ${Buffer.from(`${credential.user}:${credential.password}`).toString('base64')}`;
  return (raw: Buffer, authorization: string | undefined): WebhookFact[] => {
    if (!authorization) throw unauthorized('The Postmark webhook credential is missing');
    if (!sameText(authorization, expected)) throw forbidden('The Postmark webhook credential is wrong');
    const body = parseJson(raw, 'Postmark');
    const { RecordType } = parseWith(PostmarkRecord, body, 'Postmark');
    if (RecordType === 'Bounce' || RecordType === 'SpamComplaint') {
      const e = parseWith(PostmarkBounce, body, 'Postmark');
      const kind = POSTMARK_BOUNCES[e.Type];
      const detail = e.Details || e.Description || e.Type;
      return kind ? [fact('postmark', String(e.ID), kind, e.Email, detail)] : [];
    }
    // A recipient's own opt-out (Postmark's unsubscribe link); its bounce and complaint suppressions come as above.
    if (RecordType === 'SubscriptionChange') {
      const e = parseWith(PostmarkSubscriptionChange, body, 'Postmark');
      if (!e.SuppressSending || e.SuppressionReason !== 'ManualSuppression') return [];
      return [fact('postmark', `${e.MessageID}:${e.ChangedAt}`, 'unsubscribe', e.Recipient, 'unsubscribed')];
    }
    return [];
  };
}
