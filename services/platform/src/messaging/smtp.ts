import nodemailer from 'nodemailer';
import type { MailSender } from './types';

/** Production mail: SMTP through nodemailer (Mailpit in docker-compose). */
export function createSmtpMailSender(smtpUrl: string, from: string): MailSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
    },
  };
}
