import { eventData, ReminderEvents } from '@nudge/contracts';
import {
  type Collection,
  type DocumentStore,
  DuplicateKeyError,
  type EventEnvelope,
  type Projection,
} from '@nudge/platform';

/** One reminder sent (stream `reminder-<sendId>`): whether it was opened, how many clicks. */
export interface ReminderSendDoc {
  _id: string;
  userId: string;
  channel: 'email' | 'whatsapp';
  localDate: string;
  templateId: string;
  subjectId: string | null;
  sentAt: string;
  opened: boolean;
  clicks: number;
  version: number;
}

export const reminderSendsCollection = (store: DocumentStore): Collection<ReminderSendDoc> =>
  store.collection<ReminderSendDoc>('reminder_sends');

export const reminderStream = (sendId: string) => `reminder-${sendId}`;

export function createRemindersProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void>; applyMany(events: EventEnvelope[]): Promise<void> } {
  const sends = reminderSendsCollection(store);
  const isSent = (event: EventEnvelope) =>
    event.stream.startsWith('reminder-') && event.type === ReminderEvents.ReminderSent.type;
  /** A replay of a send already projected is refused by its _id (one write per send, no lookup first). */
  const insertSent = (event: EventEnvelope) =>
    sends.insertOne(sentDoc(event)).catch((err: unknown) => {
      if (!(err instanceof DuplicateKeyError)) throw err;
    });
  const projection = {
    name: 'engagement.reminders',
    /** Reads are by `_id` only (the sender's recorded check, an open or a click): no secondary index. */
    async ensureIndexes() {},
    /** A batch's sends in one insertMany; a clash (a replay) falls back to one insert each, duplicates skipped. */
    async applyMany(events: EventEnvelope[]) {
      const sent = events.filter(isSent);
      if (sent.length > 0) {
        try {
          await sends.insertMany(sent.map(sentDoc));
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          for (const event of sent) await insertSent(event);
        }
      }
      for (const event of events) if (!isSent(event)) await projection.apply(event);
    },
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith('reminder-')) return;
      const sendId = event.stream.slice('reminder-'.length);
      if (event.type === ReminderEvents.ReminderSent.type) {
        await insertSent(event);
        return;
      }
      const current = await sends.findOne({ _id: sendId });
      if (!current || current.version >= event.version) return;
      if (event.type === ReminderEvents.ReminderOpened.type) {
        await sends.updateOne({ _id: sendId }, { $set: { opened: true, version: event.version } });
      } else if (event.type === ReminderEvents.ReminderClicked.type) {
        await sends.updateOne({ _id: sendId }, { $inc: { clicks: 1 }, $set: { version: event.version } });
      }
    },
    async reset() {
      await sends.drop();
    },
  };
  return projection;
}

/** The read-model document of a ReminderSent (stream `reminder-<sendId>`). */
function sentDoc(event: EventEnvelope): ReminderSendDoc {
  const d = eventData(ReminderEvents.ReminderSent, event);
  return {
    _id: event.stream.slice('reminder-'.length),
    userId: d.userId,
    channel: d.channel,
    localDate: d.localDate,
    templateId: d.templateId,
    subjectId: d.subjectId,
    sentAt: d.sentAt,
    opened: false,
    clicks: 0,
    version: event.version,
  };
}
