import { EngagementEvents, eventData } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { z } from 'zod';
import { movePostCount, postCountsCollection } from './post-counts';

/** A comment; a deleted one stays as a tombstone without its text (so a late duplicate cannot bring it back). */
export interface CommentDoc {
  _id: string;
  templateId: string;
  userId: string;
  message: string;
  createdAt: string;
  updatedAt: string | null;
  deleted: boolean;
  version: number;
}

export const commentsCollection = (store: DocumentStore): Collection<CommentDoc> =>
  store.collection<CommentDoc>('comments');

/** What every comment event carries (each is parsed in full with its own contract below). */
const CommentRef = z.object({ commentId: z.string() });

const TYPES = new Set<string>([
  EngagementEvents.CommentAdded.type,
  EngagementEvents.CommentEdited.type,
  EngagementEvents.CommentDeleted.type,
]);

export function createCommentsProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void> } {
  const comments = commentsCollection(store);
  const counts = postCountsCollection(store);
  return {
    name: 'engagement.comments',
    async ensureIndexes() {
      await comments.createIndex({ templateId: 1, deleted: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!TYPES.has(event.type)) return;
      const { commentId } = CommentRef.parse(event.data);
      const current = await comments.findOne({ _id: commentId });
      if (current && current.version >= event.version) return;
      if (event.type === EngagementEvents.CommentAdded.type) {
        const data = eventData(EngagementEvents.CommentAdded, event);
        // The comment and the post's comment count move together (one commit on the embedded store).
        const counted = current && !current.deleted ? 0 : 1;
        await Promise.all([
          movePostCount(counts, data.templateId, 'comments', counted),
          comments.replaceOne(
            { _id: commentId },
            {
              _id: commentId,
              templateId: data.templateId,
              userId: data.userId,
              message: data.message,
              createdAt: event.occurredAt,
              updatedAt: null,
              deleted: false,
              version: event.version,
            },
            { upsert: true },
          ),
        ]);
        return;
      }
      if (!current) return;
      if (event.type === EngagementEvents.CommentEdited.type) {
        const data = eventData(EngagementEvents.CommentEdited, event);
        await comments.updateOne(
          { _id: commentId },
          { $set: { message: data.message, updatedAt: event.occurredAt, version: event.version } },
        );
        return;
      }
      await Promise.all([
        movePostCount(counts, current.templateId, 'comments', current.deleted ? 0 : -1),
        comments.updateOne(
          { _id: commentId },
          { $set: { message: '', deleted: true, updatedAt: event.occurredAt, version: event.version } },
        ),
      ]);
    },
    async reset() {
      await comments.drop();
      await counts.drop();
    },
  };
}
