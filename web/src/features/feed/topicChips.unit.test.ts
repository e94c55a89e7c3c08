import { describe, expect, it } from 'vitest';
import { ALL_TOPICS, nextTotal, topicChips } from './topicChips';

const topics = [
  { _id: 't1', topic: 'Sleep' },
  { _id: 't2', topic: 'Movement' },
  { _id: 't3', topic: 'Food' },
];

describe('topic chips', () => {
  it('hide a topic with no posts once counts are known, unless it is the one selected', () => {
    const counts = [{ _id: 't1', count: 7 }];
    expect(topicChips(topics, counts, 7).map((c) => c.label)).toEqual(['All', 'Sleep']);
    expect(topicChips(topics, counts, 7, 't3').map((c) => c.label)).toEqual(['All', 'Sleep', 'Food']);
  });

  it('are All with the total, then each topic with its count', () => {
    expect(
      topicChips(
        topics,
        [
          { _id: 't2', count: 4 },
          { _id: 't1', count: 7 },
        ],
        11,
      ),
    ).toEqual([
      { id: ALL_TOPICS, label: 'All', count: 11 },
      { id: 't1', label: 'Sleep', count: 7 },
      { id: 't2', label: 'Movement', count: 4 },
    ]);
  });

  it('sum the topic counts for All when the total is unknown, and ignore nonsense counts', () => {
    const chips = topicChips(
      topics,
      [
        { _id: 't1', count: 2 },
        { _id: 't2', count: -3 },
        { _id: 't3', count: Number.NaN },
      ],
      null,
    );
    expect(chips.map((c) => c.count)).toEqual([2, 2]);
  });

  it('show only All before the topics are known', () => {
    expect(topicChips([], [], 0)).toEqual([{ id: '', label: 'All', count: 0 }]);
  });

  it('keep the unfiltered total for All', () => {
    expect(nextTotal(null, 12, '')).toBe(12);
    expect(nextTotal(12, 13, '')).toBe(13);
    expect(nextTotal(12, 3, 't1')).toBe(12);
    expect(nextTotal(null, 3, 't1')).toBe(3);
    expect(nextTotal(12, undefined, '')).toBe(12);
  });
});
