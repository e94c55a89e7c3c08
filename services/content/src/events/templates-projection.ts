import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type EventEnvelope, type Projection } from '@nudge/platform';
import { evolveTemplate, type TemplateState } from '../domain/template';
import { type ContentCollections, FEED_ORDER, type FeedEntry } from './collections';

/** Newest first: later createdAt first, then the larger id. */
const before = (a: FeedEntry, b: FeedEntry) => a.at > b.at || (a.at === b.at && a.id > b.id);

/** The feed order after a post changed: its entry removed, then put back in place if the post is active. */
export function placeInFeed(posts: readonly FeedEntry[], post: TemplateState): FeedEntry[] {
  const rest = posts.filter((p) => p.id !== post._id);
  if (!post.status) return rest;
  const entry: FeedEntry = { id: post._id, topic: post.topic, at: post.createdAt, type: post.type };
  const at = rest.findIndex((p) => before(entry, p));
  rest.splice(at === -1 ? rest.length : at, 0, entry);
  return rest;
}

/**
 * Writes the feed order with `post` in place, compare-and-set on the order's revision: content replicas applying
 * changes of different posts at the same moment (two pods on one MongoDB) each read the order, and the one whose
 * revision moved meanwhile reads it again and places its post in the other's order instead of writing over it.
 */
async function placeInOrder(c: ContentCollections, post: TemplateState): Promise<void> {
  for (;;) {
    const order = await c.feedOrder.findOne({ _id: FEED_ORDER });
    const posts = placeInFeed(order?.posts ?? [], post);
    if (!order) {
      try {
        await c.feedOrder.insertOne({ _id: FEED_ORDER, posts, rev: 1 });
        return;
      } catch (err) {
        if (err instanceof DuplicateKeyError) continue;
        throw err;
      }
    }
    const read = order.rev === undefined ? { $exists: false } : order.rev;
    const written = await c.feedOrder.replaceOne(
      { _id: FEED_ORDER, rev: read },
      { _id: FEED_ORDER, posts, rev: (order.rev ?? 0) + 1 },
    );
    if (written.matchedCount === 1) return;
  }
}

/** The posts read model (`templates`, the folded state) and the order of active posts (`feed_order`). */
export function createTemplatesProjection(c: ContentCollections): Projection {
  return {
    name: 'content.templates',
    async apply(event: EventEnvelope) {
      if (!event.stream.startsWith('template-')) return;
      const current = await c.templates.findOne({ _id: event.stream.slice('template-'.length) });
      if (current && current.version >= event.version) return;
      const next = evolveTemplate(current, event);
      if (!next) return;
      await c.templates.replaceOne({ _id: next._id }, next, { upsert: true });
      await placeInOrder(c, next);
      // After the order itself: a reader who sees the new version reads the new order.
      await c.feedOrderVersion.replaceOne(
        { _id: FEED_ORDER },
        { _id: FEED_ORDER, version: randomUUID() },
        { upsert: true },
      );
    },
    async reset() {
      await c.templates.drop();
      await c.feedOrder.drop();
      await c.feedOrderVersion.drop();
    },
  };
}
