import nodemailer from 'nodemailer';
import type { MailSender } from './types';

/** Production mail: SMTP through nodemailer (Mailpit in docker-compose). */
export function createSmtpMailSender(smtpUrl: string, from: string): MailSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text, html, headers, idempotencyKey }) {
      const domain = from.split('@')[1]?.replace(/[>\s].*$/, '') || 'nudge.local';
      await transport.sendMail({
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
