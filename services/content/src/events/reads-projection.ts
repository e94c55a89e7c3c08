import { ContentEvents, eventData } from '@nudge/contracts';
import type { EventEnvelope, Projection } from '@nudge/platform';
import type { ContentCollections } from './collections';

/** total_reads per post: one document per PostOpened event (idempotent), then the post's count of them. */
export function createReadsProjection(c: ContentCollections): Projection {
  return {
    name: 'content.reads',
    async apply(event: EventEnvelope) {
      if (event.type !== ContentEvents.PostOpened.type) return;
      const d = eventData(ContentEvents.PostOpened, event);
      await c.reads.replaceOne(
        { _id: event.stream },
        { _id: event.stream, templateId: d.templateId, userId: d.userId, type: d.type, openedAt: d.openedAt },
        { upsert: true },
      );
      const total = await c.reads.countDocuments({ templateId: d.templateId });
      await c.readCounts.replaceOne(
        { _id: d.templateId },
        { _id: d.templateId, total_reads: total },
        { upsert: true },
      );
    },
    async reset() {
      await c.reads.drop();
      await c.readCounts.drop();
    },
  };
}
