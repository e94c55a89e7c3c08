import { addressOf, composeRaw, type DkimKey } from './compose';
import type { MailSender } from './types';

/**
 * Production mail: SMTP through nodemailer (Mailpit in docker-compose), loaded on the first mail (a process that only
 * captures mail never loads it). Each message is composed (and signed, with a DKIM key) by composeRaw, which refuses
 * to hand over a message it was asked to sign and could not, and sent as it is.
 */
export function createSmtpMailSender(smtpUrl: string, from: string, dkim?: DkimKey): MailSender {
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      const raw = await composeRaw(message, from, dkim);
      await (await transport).sendMail({ envelope: { from: addressOf(from), to: message.to }, raw });
    },
  };
}
