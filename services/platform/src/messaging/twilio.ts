import twilio from 'twilio';
import type { WhatsAppSender } from './types';

/** Production WhatsApp: the Twilio messaging API with whatsapp: addresses. */
export function createTwilioWhatsAppSender(opts: {
  accountSid: string;
  authToken: string;
  from: string;
}): WhatsAppSender {
  const client = twilio(opts.accountSid, opts.authToken);
  const address = (n: string) =>
    n.startsWith('whatsapp:') ? n : `whatsapp:${n.startsWith('+') ? n : `+${n}`}`;
  return {
    async send({ to, text }) {
      await client.messages.create({ from: address(opts.from), to: address(to), body: text });
    },
  };
}
