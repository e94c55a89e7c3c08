import { describe, expect, it } from 'vitest';
import {
  afterPage,
  allPostsPath,
  FIRST_MORE_PAGE,
  followLike,
  likedPosts,
  likedPostsPath,
  withPage,
} from './paging';
import type { FeedPost } from './types';

const post = (id: string): FeedPost => ({ _id: id, heading: `H${id}`, body: 'b', type: 0 });

describe('feed calls', () => {
  it('ask for pages of 5, with the topic only when one is chosen', () => {
    expect(allPostsPath(1, '')).toBe('/api/logs/getallpost?page=1&limit=5');
    expect(allPostsPath(3, 'abc123')).toBe('/api/logs/getallpost?page=3&limit=5&topicId=abc123');
    expect(likedPostsPath(2)).toBe('/api/like/getalllikedpost?page=2&limit=5');
  });
});

describe('paging', () => {
  it('starts scrolling at page 2 and goes on until a page returns no posts', () => {
    expect(FIRST_MORE_PAGE).toBe(2);
    expect(afterPage(1, 5)).toEqual({ nextPage: 2, hasMore: true });
    expect(afterPage(2, 3)).toEqual({ nextPage: 3, hasMore: true });
    expect(afterPage(3, 0)).toEqual({ nextPage: 4, hasMore: false });
  });

  it('replaces the list with page 1 and appends later pages without repeats', () => {
    const first = withPage([post('x')], 1, [post('a'), post('b')]);
    expect(first.map((p) => p._id)).toEqual(['a', 'b']);
    const second = withPage(first, 2, [post('b'), post('c')]);
    expect(second.map((p) => p._id)).toEqual(['a', 'b', 'c']);
    expect(first.map((p) => p._id)).toEqual(['a', 'b']);
  });
});

describe('liked posts', () => {
  it('take the post of each like and skip likes whose post is gone', () => {
    expect(
      likedPosts([
        { templateDetails: post('a') },
        { templateDetails: null },
        {},
        { templateDetails: post('b') },
      ]),
    ).toEqual([
      { ...post('a'), like: true },
      { ...post('b'), like: true },
    ]);
    expect(likedPosts(undefined)).toEqual([]);
  });

  it('follow a like or unlike made elsewhere', () => {
    const liked = [post('a'), post('b')];
    expect(followLike(liked, post('c'), true).map((p) => p._id)).toEqual(['c', 'a', 'b']);
    expect(followLike(liked, post('a'), false).map((p) => p._id)).toEqual(['b']);
    expect(followLike(liked, post('b'), true).map((p) => p._id)).toEqual(['b', 'a']);
  });
});
