import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ALL_TOPICS } from './topicChips';

/** The query parameter holding the topic filter of the all-posts feed, so Back and shared links keep it. */
export const TOPIC_PARAM = 'topic';

/**
 * The chosen topic, read from and written to the URL (the address is the source of truth; the store follows it).
 * Choosing a topic replaces the entry rather than adding one: Back leaves the feed, it does not replay chips.
 */
export function useTopicParam(): [string, (topicId: string) => void] {
  const [params, setParams] = useSearchParams();
  const topicId = params.get(TOPIC_PARAM) ?? ALL_TOPICS;
  const choose = useCallback(
    (next: string) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === ALL_TOPICS) updated.delete(TOPIC_PARAM);
          else updated.set(TOPIC_PARAM, next);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [topicId, choose];
}
