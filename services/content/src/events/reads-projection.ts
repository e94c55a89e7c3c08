import { ContentEvents, eventData } from '@nudge/contracts';
import type { EventEnvelope, Projection } from '@nudge/platform';
import type { ContentCollections } from './collections';

/**
 * total_reads per post: one document per PostOpened event (keyed by its stream), and the post's count moved by `$inc`
 * in the same turn (one commit on the embedded store), O(1) per read. A read applied before (catch-up after a crash,
 * a gap) finds its document and counts nothing again; a rebuild drops both and replays.
 */
export function createReadsProjection(c: ContentCollections): Projection {
  return {
    name: 'content.reads',
    async apply(event: EventEnvelope) {
      if (event.type !== ContentEvents.PostOpened.type) return;
      const d = eventData(ContentEvents.PostOpened, event);
      if (await c.reads.findOne({ _id: event.stream })) return;
      await Promise.all([
        c.reads.replaceOne(
          { _id: event.stream },
          {
            _id: event.stream,
            templateId: d.templateId,
            userId: d.userId,
            type: d.type,
            openedAt: d.openedAt,
          },
          { upsert: true },
        ),
        c.readCounts.updateOne({ _id: d.templateId }, { $inc: { total_reads: 1 } }, { upsert: true }),
      ]);
    },
    async reset() {
      await c.reads.drop();
      await c.readCounts.drop();
    },
  };
}
