import { ContentEvents, eventData } from '@nudge/contracts';
import type { DocumentStore, EventHandler } from '@nudge/platform';

/** One read: one content.PostOpened event, keyed by the event id (so a redelivery cannot add a second). */
export interface ReadDoc {
  _id: string;
  userId: string;
  templateId: string;
  type: 1 | 2;
  createdAt: string;
}

export interface ReadingHistory {
  handlers: Record<string, EventHandler>;
  /** A user's reads, newest first. */
  forUser(userId: string): Promise<ReadDoc[]>;
  ensureIndexes(): Promise<void>;
  reset(): Promise<void>;
}

export function createReadingHistory(store: DocumentStore): ReadingHistory {
  const reads = store.collection<ReadDoc>('reading_history');
  return {
    handlers: {
      [ContentEvents.PostOpened.type]: async (event) => {
        const data = eventData(ContentEvents.PostOpened, event);
        await reads.replaceOne(
          { _id: event.id },
          {
            _id: event.id,
            userId: data.userId,
            templateId: data.templateId,
            type: data.type,
            createdAt: data.openedAt,
          },
          { upsert: true },
        );
      },
    },
    forUser: (userId) => reads.find({ userId }, { sort: { createdAt: -1, _id: -1 } }),
    async ensureIndexes() {
      await reads.createIndex({ userId: 1 });
    },
    reset: () => reads.drop(),
  };
}
