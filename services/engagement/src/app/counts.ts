import type { DocumentStore } from '@nudge/platform';
import { commentsCollection } from '../events/comments-projection';
import { likesCollection } from '../events/likes-projection';

/** A post's like and comment counts, read from the read models (exact, whatever the delivery history). */
export function createCounts(store: DocumentStore) {
  const likes = likesCollection(store);
  const comments = commentsCollection(store);
  return {
    likesOf: (templateId: string) => likes.countDocuments({ templateId, liked: true }),
    commentsOf: (templateId: string) => comments.countDocuments({ templateId, deleted: false }),
  };
}

export type Counts = ReturnType<typeof createCounts>;
