import { DuplicateKeyError } from '../errors';
import { newId } from '../ids';
import type { DocumentStore } from '../store/types';
import { composeRaw, type DkimKey } from './compose';
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
    async forget(to) {
      const { deletedCount } = await messages.deleteMany({ to });
      return deletedCount;
    },
    async list(limit = 100, skip = 0) {
      const docs = await messages.find({}, { sort: { at: -1 }, limit, skip });
      return docs.map(({ channel, to, subject, text, html, headers, idempotencyKey, raw, createdAt }) => ({
        channel,
        to,
        ...(subject === undefined ? {} : { subject }),
        text,
        ...(html === undefined ? {} : { html }),
        ...(headers === undefined ? {} : { headers }),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        ...(raw === undefined ? {} : { raw }),
        createdAt,
      }));
    },
  };
}

/**
 * Captures e-mail in the outbox. With a DKIM key, each message is also composed and signed as SMTP would send it and
 * kept whole (`raw`), so what a mailbox provider would verify can be verified.
 */
export const captureMail = (outbox: DevOutbox, signing?: { from: string; dkim: DkimKey }): MailSender => ({
  send: signing
    ? async (message) =>
        outbox.record({
          channel: 'email',
          ...message,
          raw: await composeRaw(message, signing.from, signing.dkim),
        })
    : (message) => outbox.record({ channel: 'email', ...message }),
  idempotent: true,
});

export const captureWhatsApp = (outbox: DevOutbox): WhatsAppSender => ({
  send: (message) => outbox.record({ channel: 'whatsapp', ...message }),
  idempotent: true,
});
