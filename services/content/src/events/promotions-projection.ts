import type { EventEnvelope, Projection } from '@nudge/platform';
import { evolvePromotion } from '../domain/promotion';
import type { ContentCollections } from './collections';

export function createPromotionsProjection(c: ContentCollections): Projection {
  return {
    name: 'content.promotions',
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith('promotion-')) return;
      const current = await c.promotions.findOne({ _id: event.stream.slice('promotion-'.length) });
      if (current && current.version >= event.version) return;
      const next = evolvePromotion(current, event);
      if (next) await c.promotions.replaceOne({ _id: next._id }, next, { upsert: true });
    },
    async reset() {
      await c.promotions.drop();
    },
  };
}
