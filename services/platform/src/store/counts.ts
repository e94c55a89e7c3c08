import type { Collection, Doc } from './types';

/**
 * Moves one count of the document `_id` by `by` with `$inc` (nothing for 0), creating the document with each of its
 * other `counts` at 0: a counter document several counts share (a post's likes and comments), O(1) per change.
 */
export function moveCount<F extends string>(
  collection: Collection<Doc & { [K in F]: number }>,
  _id: string,
  field: F,
  by: number,
  counts: readonly F[],
): Promise<unknown> {
  if (by === 0) return Promise.resolve();
  const zeros = Object.fromEntries(counts.filter((f) => f !== field).map((f) => [f, 0]));
  return collection.updateOne({ _id }, { $inc: { [field]: by }, $setOnInsert: zeros }, { upsert: true });
}
