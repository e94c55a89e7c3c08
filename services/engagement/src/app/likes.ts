import { gatePost, type Role } from '@nudge/contracts';
import { type DocumentStore, handleCommand, notFound, type ServiceEventStore } from '@nudge/platform';
import { likeDecider, likeStream } from '../domain/likes';
import { type LikeDoc, likesCollection } from '../events/likes-projection';
import type { PostDoc, PostsCopy } from '../events/posts-copy';
import type { Counts } from './counts';

export const POST_NOT_FOUND = 'Post not found';

/** The post as engagement sends it to a reader, before gating. */
export const postView = (post: PostDoc) => ({
  _id: post._id,
  heading: post.heading,
  body: post.body,
  image: post.image,
  type: post.type,
  topic: post.topic,
  status: post.status,
  createdAt: post.createdAt,
});

export function createLikes(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  posts: PostsCopy;
  counts: Counts;
}) {
  const likes = likesCollection(deps.store);

  /** like/add: sets the like state; the same state again changes nothing and records nothing. */
  async function setLike(user: { userId: string; role: Role }, templateId: string, liked: boolean) {
    const post = await deps.posts.get(templateId);
    // A paused post cannot be liked by readers, but an earlier like can always be taken back.
    if (!post || (liked && !post.status && user.role !== 'admin')) throw notFound(POST_NOT_FOUND);
    await handleCommand(
      deps.events,
      likeStream(user.userId, templateId),
      likeDecider,
      { userId: user.userId, templateId, liked },
      { actor: user.userId },
    );
    return { like: liked, totallikes: await deps.counts.likesOf(templateId) };
  }

  /** The user's liked posts, newest like first; paused posts are left out; premium bodies gated by role. */
  async function likedPage(user: { userId: string; role: Role }, page: number, limit: number) {
    const paused = await deps.posts.pausedIds();
    const filter = {
      userId: user.userId,
      liked: true,
      ...(paused.length ? { templateId: { $nin: paused } } : {}),
    };
    const entries: LikeDoc[] = await likes.find(filter, {
      sort: { likedAt: -1, _id: -1 },
      skip: (page - 1) * limit,
      limit,
    });
    const ids = entries.map((e) => e.templateId);
    const [posts, countsOf] = await Promise.all([deps.posts.byIds(ids), deps.counts.of(ids)]);
    const templates = [];
    for (const entry of entries) {
      const post = posts.get(entry.templateId);
      if (!post) continue;
      const { likes: totallikes, comments: totalcomments } = countsOf(post._id);
      templates.push({
        _id: entry.likeId ?? entry._id,
        templateid: entry.templateId,
        createdAt: entry.likedAt ?? '',
        templateDetails: { ...gatePost(postView(post), user.role), totallikes, totalcomments, like: true },
      });
    }
    return templates;
  }

  return { setLike, likedPage };
}

export type Likes = ReturnType<typeof createLikes>;
