import { ContentEvents } from '@nudge/contracts';
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
 * Every read model of content's own events, registered as one projection (one checkpoint to advance per mark). Each
 * part only looks at its own streams and is idempotent on its own.
 *
 * A recorded read (content.PostOpened, the most frequent commit: one new stream per read) is applied per stream: the
 * reads part writes only its read's own document and moves the post's count by `$inc` (commutative, never read
 * before the write), and the other parts ignore it (they look at `template-`, `topics`, `promotion-` and
 * `sitesettings` streams). So reads do not wait for each other under the process-wide lock that the posts' feed order
 * (one document all `template-` streams write, read then written) still needs.
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
    streamTypes: [ContentEvents.PostOpened.type],
    async apply(event: EventEnvelope) {
      for (const part of parts) await part.apply(event);
    },
    async reset() {
      for (const part of parts) await part.reset();
    },
  };
}
