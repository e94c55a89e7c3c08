// Recommendation list rules. Pure functions; the carousel's own rules are in features/carousel.
import type { RecommendedPost } from './types';

/** A page added to the carousel: without the post being read and without cards already shown. */
export function appendRecommendations(
  shown: RecommendedPost[],
  page: RecommendedPost[],
  currentPostId: string,
): RecommendedPost[] {
  const ids = new Set(shown.map((post) => post._id));
  ids.add(currentPostId);
  const added: RecommendedPost[] = [];
  for (const post of page) {
    if (!post || typeof post._id !== 'string' || ids.has(post._id)) continue;
    ids.add(post._id);
    added.push(post);
  }
  return [...shown, ...added];
}

/**
 * Whether another page may follow: the server's hasMore; when it is missing, a full page means maybe. A page that
 * added no new card stops the loading too, so a server repeating itself cannot make the carousel fetch forever.
 */
export function moreRecommendations(input: {
  hasMore: boolean | undefined;
  pageSize: number;
  received: number;
  added: number;
}): boolean {
  if (input.added === 0) return false;
  if (typeof input.hasMore === 'boolean') return input.hasMore;
  return input.received >= input.pageSize;
}
