import { EngagementEvents, eventData } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { movePostCount, postCountsCollection } from './post-counts';

/** One document per (user, post) that was ever liked; `liked` is the current state. */
export interface LikeDoc {
  _id: string;
  userId: string;
  templateId: string;
  liked: boolean;
  /** Id of the LikeSet event that made the current like (the liked list's entry id); null when unliked. */
  likeId: string | null;
  /** When the current like was made; null when unliked. */
  likedAt: string | null;
  version: number;
}

export const likeDocId = (userId: string, templateId: string) => `${userId}:${templateId}`;
export const likesCollection = (store: DocumentStore): Collection<LikeDoc> =>
  store.collection<LikeDoc>('likes');

export function createLikesProjection(store: DocumentStore): Projection & { ensureIndexes(): Promise<void> } {
  const likes = likesCollection(store);
  const counts = postCountsCollection(store);
  return {
    name: 'engagement.likes',
    async ensureIndexes() {
      await likes.createIndex({ userId: 1, liked: 1 });
      await likes.createIndex({ templateId: 1, liked: 1 });
    },
    async apply(event: EventEnvelope) {
      if (event.type !== EngagementEvents.LikeSet.type) return;
      const data = eventData(EngagementEvents.LikeSet, event);
      const _id = likeDocId(data.userId, data.templateId);
      const current = await likes.findOne({ _id });
      if (current && current.version >= event.version) return;
      // The state and the post's like count move together (one commit on the embedded store).
      const by = (data.liked ? 1 : 0) - (current?.liked ? 1 : 0);
      await Promise.all([
        movePostCount(counts, data.templateId, 'likes', by),
        likes.replaceOne(
          { _id },
          {
            _id,
            userId: data.userId,
            templateId: data.templateId,
            liked: data.liked,
            likeId: data.liked ? event.id : null,
            likedAt: data.liked ? event.occurredAt : null,
            version: event.version,
          },
          { upsert: true },
        ),
      ]);
    },
    async reset() {
      await likes.drop();
      await counts.drop();
    },
  };
}
