/**
 * Paging of the recommendations list: the same topic's posts first, then the others (each newest first).
 * Given how many there are of each, which slice of each list a page takes. Pure.
 */
export function recommendationSlices(
  sameCount: number,
  otherCount: number,
  page: number,
  limit: number,
): { same: { skip: number; limit: number }; other: { skip: number; limit: number }; hasMore: boolean } {
  const start = (page - 1) * limit;
  const end = start + limit;
  const sameSkip = Math.min(start, sameCount);
  const sameTake = Math.max(0, Math.min(end, sameCount) - sameSkip);
  const otherSkip = Math.max(0, start - sameCount);
  const otherTake = Math.max(0, Math.min(limit - sameTake, otherCount - otherSkip));
  return {
    same: { skip: sameSkip, limit: sameTake },
    other: { skip: otherSkip, limit: otherTake },
    hasMore: end < sameCount + otherCount,
  };
}
