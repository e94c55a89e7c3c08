import { ContentEvents, eventData } from '@nudge/contracts';
import type { EventEnvelope, Projection } from '@nudge/platform';
import { TOPICS_STREAM, topicKey } from '../domain/topic';
import type { ContentCollections } from './collections';

/** The topics read model, and the version of the `topics` stream it reflects (for the next append). */
export function createTopicsProjection(c: ContentCollections): Projection {
  return {
    name: 'content.topics',
    async apply(event: EventEnvelope) {
      if (event.stream !== TOPICS_STREAM) return;
      const meta = await c.topicsMeta.findOne({ _id: TOPICS_STREAM });
      if (meta && meta.version >= event.version) return;
      if (event.type === ContentEvents.TopicAdded.type) {
        const d = eventData(ContentEvents.TopicAdded, event);
        if (d.default) await c.topics.updateMany({ default: true }, { $set: { default: false } });
        await c.topics.replaceOne(
          { _id: d.topicId },
          {
            _id: d.topicId,
            topic: d.topic,
            key: topicKey(d.topic),
            default: d.default,
            createdAt: d.createdAt,
          },
          { upsert: true },
        );
      }
      await c.topicsMeta.replaceOne(
        { _id: TOPICS_STREAM },
        { _id: TOPICS_STREAM, version: event.version },
        { upsert: true },
      );
    },
    async reset() {
      await c.topics.drop();
      await c.topicsMeta.drop();
    },
  };
}
