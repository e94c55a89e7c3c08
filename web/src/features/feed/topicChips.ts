// Topic chips of the all-posts feed (reader.md §2: 'All plus each topic, each with a count'). Pure.

export interface Topic {
  _id: string;
  topic: string;
}

/** One entry of the feed response's topicCounts. */
export interface TopicCount {
  _id: string;
  count: number;
}

export interface TopicChip {
  /** '' for All. */
  id: string;
  label: string;
  count: number;
}

export const ALL_TOPICS = '';
export const ALL_LABEL = 'All';

const asCount = (value: unknown): number => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
};

/**
 * 'All' (the feed's totalPostsCount), then every topic in the order GET /api/topic/getalltopics lists them, each
 * with its count from topicCounts.
 * Choices: when totalPostsCount is unknown, All shows the sum of the topic counts. Once counts are known a topic
 * with no posts has no chip (choosing it would only show an empty list), unless it is the one selected.
 */
export function topicChips(
  topics: readonly Topic[],
  topicCounts: readonly TopicCount[],
  totalPostsCount: number | null,
  selectedId: string = ALL_TOPICS,
): TopicChip[] {
  const counts = new Map<string, number>();
  for (const entry of topicCounts) {
    if (entry && typeof entry._id === 'string')
      counts.set(entry._id, (counts.get(entry._id) ?? 0) + asCount(entry.count));
  }
  const all =
    totalPostsCount === null ? [...counts.values()].reduce((sum, n) => sum + n, 0) : asCount(totalPostsCount);
  const countsKnown = totalPostsCount !== null || counts.size > 0;
  return [
    { id: ALL_TOPICS, label: ALL_LABEL, count: all },
    ...topics
      .map((topic) => ({ id: topic._id, label: topic.topic, count: counts.get(topic._id) ?? 0 }))
      .filter((chip) => !countsKnown || chip.count > 0 || chip.id === selectedId),
  ];
}

/**
 * The All count to keep after a feed page. Choice: the count from an unfiltered page wins; a page filtered by a
 * topic only fills it in when none is known yet (whether the server's totalPostsCount follows the filter is not
 * shown, so All never shrinks to one topic's count).
 */
export function nextTotal(known: number | null, received: unknown, topicId: string): number | null {
  if (typeof received !== 'number' || !Number.isFinite(received)) return known;
  if (topicId === ALL_TOPICS || known === null) return received;
  return known;
}
