import { type Collection, type DocumentStore, moveCount } from '@nudge/platform';

/**
 * A post's like and comment counts, one document per post, moved by the likes and comments projections with `$inc`
 * in the same turn as the state they change (one commit on the embedded store): O(1) per like or comment, exact
 * whatever the delivery history, because each projection applies an event once (its state's version guards it) and
 * a rebuild drops these counts with the states and replays both.
 */
export interface PostCountsDoc {
  _id: string;
  likes: number;
  comments: number;
}

export const postCountsCollection = (store: DocumentStore): Collection<PostCountsDoc> =>
  store.collection<PostCountsDoc>('post_counts');

/** Moves one of the post's counts by `by` (nothing for 0); a post without a document counts 0 of each. */
export const movePostCount = (
  counts: Collection<PostCountsDoc>,
  templateId: string,
  field: 'likes' | 'comments',
  by: number,
): Promise<unknown> => moveCount(counts, templateId, field, by, ['likes', 'comments']);
