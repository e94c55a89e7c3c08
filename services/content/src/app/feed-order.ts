import type { TemplateState } from '../domain/template';
import { type ContentCollections, FEED_ORDER, type FeedEntry } from '../events/collections';

/**
 * Reads of the feed order (active posts, newest first) and the posts it names. The order (one entry per active post)
 * is read from the store only when its version changed since the last read, so a feed page does not copy all of it
 * out of the store. What `active()` returns is shared between requests and frozen.
 */
export function createFeedOrder(c: ContentCollections) {
  let last: { version: string; posts: readonly FeedEntry[] } | undefined;
  const topicCounts = new WeakMap<readonly FeedEntry[], { _id: string; count: number }[]>();
  const postsByOrder = new WeakMap<readonly FeedEntry[], Map<string, TemplateState>>();
  const postsOf = (order: readonly FeedEntry[]) => {
    let posts = postsByOrder.get(order);
    if (!posts) {
      posts = new Map();
      postsByOrder.set(order, posts);
    }
    return posts;
  };
  return {
    async active(): Promise<readonly FeedEntry[]> {
      const version = (await c.feedOrderVersion.findOne({ _id: FEED_ORDER }))?.version;
      if (version !== undefined && last?.version === version) return last.posts;
      const posts = Object.freeze(
        ((await c.feedOrder.findOne({ _id: FEED_ORDER }))?.posts ?? []).map((p) => Object.freeze(p)),
      );
      if (version !== undefined) last = { version, posts };
      return posts;
    },
    /** Active posts per topic, sorted by topic id (computed once per version of the order). */
    topicCounts(active: readonly FeedEntry[]): { _id: string; count: number }[] {
      let counts = topicCounts.get(active);
      if (!counts) {
        const byTopic = new Map<string, number>();
        for (const p of active) byTopic.set(p.topic, (byTopic.get(p.topic) ?? 0) + 1);
        counts = [...byTopic.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([_id, count]) => ({ _id, count }));
        topicCounts.set(active, counts);
      }
      return counts.map((t) => ({ ...t }));
    },
    /**
     * The active posts with these ids, in the order given. With `of`, the order they were cut from (what `active()`
     * returned), a post read once is kept with that order and shared (frozen): the templates projection writes a new
     * version of the order after every change of a post, so a newer order never sees an older post.
     */
    async posts(ids: string[], of?: readonly FeedEntry[]): Promise<TemplateState[]> {
      if (ids.length === 0) return [];
      const kept = of ? postsOf(of) : new Map<string, TemplateState>();
      const missing = ids.filter((id) => !kept.has(id));
      if (missing.length > 0)
        for (const t of await c.templates.find({ _id: { $in: missing } })) kept.set(t._id, Object.freeze(t));
      return ids.flatMap((id) => {
        const post = kept.get(id);
        return post?.status ? [post] : [];
      });
    },
  };
}

export type FeedOrder = ReturnType<typeof createFeedOrder>;
