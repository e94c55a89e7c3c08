import { newId } from '../ids';
import type { DocumentStore } from '../store/types';
import type { DevOutbox, MailSender, OutboxMessage, WhatsAppSender } from './types';

type OutboxDoc = OutboxMessage & { _id: string; at: number };

export function createDevOutbox(store: DocumentStore, clock: () => Date = () => new Date()): DevOutbox {
  const messages = store.collection<OutboxDoc>('dev_outbox');
  let last = 0;
  return {
    async record(message) {
      const now = clock();
      // Strictly increasing, so two messages in one millisecond keep their order.
      last = Math.max(last + 1, now.getTime());
      await messages.insertOne({ ...message, _id: newId(now), at: last, createdAt: now.toISOString() });
    },
    async list(limit = 100) {
      const docs = await messages.find({}, { sort: { at: -1 }, limit });
      return docs.map(({ channel, to, subject, text, html, createdAt }) => ({
        channel,
        to,
        ...(subject === undefined ? {} : { subject }),
        text,
        ...(html === undefined ? {} : { html }),
        createdAt,
      }));
    },
  };
}

export const captureMail = (outbox: DevOutbox): MailSender => ({
  send: (message) => outbox.record({ channel: 'email', ...message }),
});

export const captureWhatsApp = (outbox: DevOutbox): WhatsAppSender => ({
  send: (message) => outbox.record({ channel: 'whatsapp', ...message }),
});
