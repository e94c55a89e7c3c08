import { ContentEvents, eventData } from '@nudge/contracts';
import { createKeyedSerial, createSerial, type EventEnvelope, type Projection } from '@nudge/platform';
import type { ContentCollections } from './collections';
import { createPromotionsProjection } from './promotions-projection';
import { createReadsProjection } from './reads-projection';
import { createSettingsProjection } from './settings-projection';
import { createTemplatesProjection } from './templates-projection';
import { createTopicsProjection } from './topics-projection';

export const READ_MODELS = 'content.read-models';

/**
 * Every read model of content's own events, registered as one projection (one checkpoint to move instead of five).
 * Each part only looks at its own streams and is idempotent on its own.
 *
 * The runner applies commits of different streams concurrently (`concurrency: 'stream'`), and this projection orders
 * the writes to documents several streams share itself: a read (`read-<id>`, the most frequent commit) writes its own
 * document and then its post's count, one read of a post at a time (per post, so reads of different posts run at
 * once); the other parts (posts and their feed order, topics, promotions, settings) run one event at a time among
 * themselves, as they did under the runner's process-wide lock.
 */
export function createContentReadModels(c: ContentCollections): Projection {
  const reads = createReadsProjection(c);
  const parts = [
    createTemplatesProjection(c),
    createTopicsProjection(c),
    createPromotionsProjection(c),
    createSettingsProjection(c),
  ];
  const perPost = createKeyedSerial();
  const shared = createSerial();
  return {
    name: READ_MODELS,
    concurrency: 'stream',
    async apply(event: EventEnvelope) {
      if (event.type === ContentEvents.PostOpened.type) {
        const { templateId } = eventData(ContentEvents.PostOpened, event);
        await perPost(templateId, () => reads.apply(event));
        return;
      }
      await shared(async () => {
        for (const part of parts) await part.apply(event);
      });
    },
    async reset() {
      for (const part of [...parts, reads]) await part.reset();
    },
  };
}
