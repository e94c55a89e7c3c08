import type { DocumentStore } from '@nudge/platform';
import { postCountsCollection } from '../events/post-counts';

/** A post's like and comment counts: one document the likes and comments projections keep (events/post-counts.ts). */
export function createCounts(store: DocumentStore) {
  const counts = postCountsCollection(store);
  return {
    likesOf: async (templateId: string) => (await counts.findOne({ _id: templateId }))?.likes ?? 0,
    /** Each post's like and comment counts, in one read (a post never liked or commented counts 0 of each). */
    async of(templateIds: string[]): Promise<(id: string) => { likes: number; comments: number }> {
      const found = new Map((await counts.find({ _id: { $in: templateIds } })).map((d) => [d._id, d]));
      return (id) => found.get(id) ?? { likes: 0, comments: 0 };
    },
  };
}

export type Counts = ReturnType<typeof createCounts>;
