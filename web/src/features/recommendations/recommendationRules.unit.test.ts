import { describe, expect, it } from 'vitest';
import { appendRecommendations, moreRecommendations } from './recommendationRules';

const post = (id: string) => ({ _id: id, heading: `h${id}`, type: 0 });

describe('appendRecommendations', () => {
  it('adds new cards, leaving out the current post and repeats', () => {
    const shown = [post('a'), post('b')];
    expect(appendRecommendations(shown, [post('b'), post('cur'), post('c'), post('c')], 'cur')).toEqual([
      post('a'),
      post('b'),
      post('c'),
    ]);
  });
});

describe('moreRecommendations', () => {
  it("follows the server's hasMore", () => {
    expect(moreRecommendations({ hasMore: true, pageSize: 5, received: 2, added: 2 })).toBe(true);
    expect(moreRecommendations({ hasMore: false, pageSize: 5, received: 5, added: 5 })).toBe(false);
  });

  it('falls back to a full page, and stops on a page with nothing new', () => {
    expect(moreRecommendations({ hasMore: undefined, pageSize: 5, received: 5, added: 5 })).toBe(true);
    expect(moreRecommendations({ hasMore: undefined, pageSize: 5, received: 3, added: 3 })).toBe(false);
    expect(moreRecommendations({ hasMore: true, pageSize: 5, received: 5, added: 0 })).toBe(false);
  });
});
