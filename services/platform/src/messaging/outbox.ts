import { DuplicateKeyError } from '../errors';
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
      const _id = message.idempotencyKey ? `key:${message.idempotencyKey}` : newId(now);
      try {
        await messages.insertOne({ ...message, _id, at: last, createdAt: now.toISOString() });
      } catch (err) {
        // A re-delivery of a message already captured (same idempotency key): stored once.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    },
    async list(limit = 100, skip = 0) {
      const docs = await messages.find({}, { sort: { at: -1 }, limit, skip });
      return docs.map(({ channel, to, subject, text, html, headers, idempotencyKey, createdAt }) => ({
        channel,
        to,
        ...(subject === undefined ? {} : { subject }),
        text,
        ...(html === undefined ? {} : { html }),
        ...(headers === undefined ? {} : { headers }),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        createdAt,
      }));
    },
  };
}

export const captureMail = (outbox: DevOutbox): MailSender => ({
  send: (message) => outbox.record({ channel: 'email', ...message }),
  idempotent: true,
});

export const captureWhatsApp = (outbox: DevOutbox): WhatsAppSender => ({
  send: (message) => outbox.record({ channel: 'whatsapp', ...message }),
  idempotent: true,
});
