import type { EventEnvelope, Projection } from '@nudge/platform';
import type { ContentCollections } from './collections';
import { createPromotionsProjection } from './promotions-projection';
import { createReadsProjection } from './reads-projection';
import { createSettingsProjection } from './settings-projection';
import { createTemplatesProjection } from './templates-projection';
import { createTopicsProjection } from './topics-projection';

export const READ_MODELS = 'content.read-models';

/**
 * The collections these read models keep: everything a rebuild from content's own event store gives again (the rest
 * of content's collections are copies kept from other services' events, or caches). The rebuild tests compare them.
 */
export const CONTENT_READ_MODEL_COLLECTIONS = [
  'templates',
  'feed_order',
  'topics',
  'topics_meta',
  'promotions',
  'site_settings',
  'post_reads',
  'post_read_counts',
] as const;

/**
 * Every read model of content's own events, registered as one projection. The runner keeps a checkpoint per
 * (projection, stream) and writes it after every commit; one projection instead of five makes each recorded read
 * (the most frequent commit: one new stream per read) cost one checkpoint instead of five. Each part still only
 * looks at its own streams and is idempotent on its own.
 */
export function createContentReadModels(c: ContentCollections): Projection {
  const parts = [
    createTemplatesProjection(c),
    createTopicsProjection(c),
    createPromotionsProjection(c),
    createSettingsProjection(c),
    createReadsProjection(c),
  ];
  return {
    name: READ_MODELS,
    async apply(event: EventEnvelope) {
      for (const part of parts) await part.apply(event);
    },
    async reset() {
      for (const part of parts) await part.reset();
    },
  };
}
