import type { MailSender } from './types';

/**
 * Production mail: SMTP through nodemailer (Mailpit in docker-compose), loaded on the first mail (a process that only
 * captures mail never loads it).
 */
export function createSmtpMailSender(smtpUrl: string, from: string): MailSender {
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  return {
    async send({ to, subject, text, html, headers, idempotencyKey }) {
      const domain = from.split('@')[1]?.replace(/[>\s].*$/, '') || 'nudge.local';
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      await (await transport).sendMail({
        from,
        to,
        subject,
        text,
        ...(html ? { html } : {}),
        ...(headers ? { headers } : {}),
        // Mail servers and clients use the Message-ID to spot a re-delivery of the same reminder.
        ...(idempotencyKey ? { messageId: `<${idempotencyKey}@${domain}>` } : {}),
      });
    },
  };
}
