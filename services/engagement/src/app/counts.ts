import type { DocumentStore } from '@nudge/platform';
import { postCountsCollection } from '../events/post-counts';

/** A post's like and comment counts: one document the likes and comments projections keep (events/post-counts.ts). */
export function createCounts(store: DocumentStore) {
  const counts = postCountsCollection(store);
  return {
    likesOf: async (templateId: string) => (await counts.findOne({ _id: templateId }))?.likes ?? 0,
    commentsOf: async (templateId: string) => (await counts.findOne({ _id: templateId }))?.comments ?? 0,
  };
}

export type Counts = ReturnType<typeof createCounts>;
