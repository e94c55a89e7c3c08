import type { Role } from '@nudge/contracts';
import { notFound } from '@nudge/platform';
import { recommendationSlices } from '../domain/recommendations';
import type { ContentCollections, FeedEntry } from '../events/collections';
import type { FeedOrder } from './feed-order';
import type { PostViews } from './post-views';
import type { Reads } from './reads';
import { POST_NOT_FOUND } from './templates';

export interface Viewer {
  userId: string | null;
  role: Role | null;
}

const ids = (posts: readonly FeedEntry[]) => posts.map((p) => p.id);

/** What readers see: the feed, one post, and the recommendations under it. Every post goes out gated. */
export function createReaderPosts(deps: {
  c: ContentCollections;
  order: FeedOrder;
  views: PostViews;
  reads: Reads;
}) {
  const { c, order, views, reads } = deps;

  /** A post a reader may open: active, or paused for admins only. */
  const readable = async (id: string, viewer: Viewer) => {
    const post = await c.templates.findOne({ _id: id });
    if (!post || (!post.status && viewer.role !== 'admin')) throw notFound(POST_NOT_FOUND);
    return post;
  };

  return {
    async feed(viewer: Viewer, query: { page: number; limit: number; topicId?: string | undefined }) {
      const active = await order.active();
      const shown = query.topicId ? active.filter((p) => p.topic === query.topicId) : active;
      const start = (query.page - 1) * query.limit;
      const page = await order.posts(ids(shown.slice(start, start + query.limit)), active);
      return {
        templates: await views.readerPosts(page, viewer),
        topicCounts: order.topicCounts(active),
        totalPostsCount: active.length,
      };
    },

    async post(id: string, viewer: Viewer) {
      const [post] = await views.readerPosts([await readable(id, viewer)], viewer);
      if (!post) throw notFound(POST_NOT_FOUND);
      if (viewer.userId && !post.locked) await reads.opened(viewer.userId, post._id, 1);
      return post;
    },

    async recommendations(id: string, viewer: Viewer, page: number, limit: number) {
      const current = await readable(id, viewer);
      const active = await order.active();
      const same = active.filter((p) => p.topic === current.topic && p.id !== current._id);
      const other = active.filter((p) => p.topic !== current.topic);
      const slices = recommendationSlices(same.length, other.length, page, limit);
      const chosen = [
        ...same.slice(slices.same.skip, slices.same.skip + slices.same.limit),
        ...other.slice(slices.other.skip, slices.other.skip + slices.other.limit),
      ];
      return {
        templates: await views.readerPosts(await order.posts(ids(chosen), active), viewer),
        hasMore: slices.hasMore,
      };
    },
  };
}

export type ReaderPosts = ReturnType<typeof createReaderPosts>;
