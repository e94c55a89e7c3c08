import type { TemplateState } from '../domain/template';
import { type ContentCollections, FEED_ORDER, type FeedEntry } from '../events/collections';

/** Reads of the feed order (active posts, newest first) and the posts it names. */
export function createFeedOrder(c: ContentCollections) {
  return {
    async active(): Promise<FeedEntry[]> {
      return (await c.feedOrder.findOne({ _id: FEED_ORDER }))?.posts ?? [];
    },
    /** The active posts with these ids, in the order given. */
    async posts(ids: string[]): Promise<TemplateState[]> {
      if (ids.length === 0) return [];
      const found = new Map(
        (await c.templates.find({ _id: { $in: ids } })).filter((t) => t.status).map((t) => [t._id, t]),
      );
      return ids.flatMap((id) => found.get(id) ?? []);
    },
  };
}

export type FeedOrder = ReturnType<typeof createFeedOrder>;
