import type { MailMessage } from './types';

/** The key that signs every e-mail (DKIM): the public half is published at `<selector>._domainkey.<domain>`. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** PEM private key (RSA or Ed25519). */
  privateKey: string;
}

/** The address of a `Name <address>` sender, or the address itself. */
export const addressOf = (sender: string): string => /<([^>]*)>/.exec(sender)?.[1]?.trim() ?? sender.trim();

/** The domain of a sender ('Nudge <no-reply@nudge.io>' -> 'nudge.io'). */
export const domainOf = (sender: string): string => (addressOf(sender).split('@')[1] ?? '').toLowerCase();

/**
 * nodemailer's message options for one e-mail, the same for SMTP and for the capture outbox, so both hold the same
 * message: the idempotency key becomes the Message-ID (mail servers and clients spot a re-delivery by it), and the
 * DKIM key, when there is one, signs it.
 */
export function mailOptions(message: MailMessage, from: string, dkim?: DkimKey) {
  const { to, subject, text, html, headers, idempotencyKey } = message;
  return {
    from,
    to,
    subject,
    text,
    ...(html ? { html } : {}),
    ...(headers ? { headers } : {}),
    ...(idempotencyKey ? { messageId: `<${idempotencyKey}@${domainOf(from) || 'nudge.local'}>` } : {}),
    ...(dkim ? { dkim } : {}),
  };
}

/**
 * The message as a mail server receives it (RFC 5322, CRLF line ends), signed when `dkim` is given: what the capture
 * outbox keeps so that what was signed can be verified.
 */
export async function composeRaw(message: MailMessage, from: string, dkim?: DkimKey): Promise<string> {
  const nodemailer = (await import('nodemailer')).default;
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const info = await transport.sendMail(mailOptions(message, from, dkim));
  const raw = (info.message as unknown as Buffer).toString('utf8');
  // nodemailer leaves a message unsigned, silently, when its key cannot sign it (a key of another type, say).
  if (dkim && !/^DKIM-Signature:/im.test(raw.slice(0, raw.indexOf('\r\n\r\n'))))
    throw new Error(
      `DKIM signing with ${dkim.keySelector}._domainkey.${dkim.domainName} failed: not sent unsigned`,
    );
  return raw;
}
