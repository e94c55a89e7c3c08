import { Phone } from '@nudge/contracts';
import twilio from 'twilio';
import { rateLimiter } from './rate';
import type { WhatsAppSender } from './types';

/**
 * Production WhatsApp: the Twilio messaging API with whatsapp: addresses, at most `ratePerSecond` messages a second
 * from this process (WhatsApp's per-number throughput).
 */
export function createTwilioWhatsAppSender(opts: {
  accountSid: string;
  authToken: string;
  from: string;
  ratePerSecond?: number;
}): WhatsAppSender {
  const client = twilio(opts.accountSid, opts.authToken);
  const turn = rateLimiter(opts.ratePerSecond ?? 0);
  // A number verified before numbers were stored as E.164 is 10 Indian digits: read it as the Phone rule reads input.
  const address = (n: string) => (n.startsWith('whatsapp:') ? n : `whatsapp:${e164(n)}`);
  return {
    async send({ to, text }) {
      await turn.wait();
      await client.messages.create({ from: address(opts.from), to: address(to), body: text });
    },
  };
}

/** The E.164 form of a stored number ('9876543210' -> '+919876543210'); one that does not parse is passed as it is. */
export function e164(stored: string): string {
  const parsed = Phone.safeParse(stored);
  return parsed.success && parsed.data ? parsed.data : stored;
}
