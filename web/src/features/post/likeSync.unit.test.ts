import { describe, expect, it } from 'vitest';
import { applyLike, initialLikeSync, LIKE_DEBOUNCE_MS, likeClick, needsSending } from './likeSync';

describe('like debounce decisions', () => {
  it('waits 1500 ms of quiet', () => {
    expect(LIKE_DEBOUNCE_MS).toBe(1500);
  });

  it('sends the first click on a post at once and later clicks after the quiet time', () => {
    const first = likeClick(initialLikeSync, 'p1');
    expect(first.plan).toBe('sendNow');
    const second = likeClick(first.state, 'p1');
    expect(second.plan).toBe('sendAfterQuiet');
    const third = likeClick(second.state, 'p1');
    expect(third.plan).toBe('sendAfterQuiet');
    expect(third.state).toEqual({ templateId: 'p1', clicks: 3 });
  });

  it('starts over on another post', () => {
    const onFirst = likeClick(likeClick(initialLikeSync, 'p1').state, 'p1');
    const onOther = likeClick(onFirst.state, 'p2');
    expect(onOther.plan).toBe('sendNow');
    expect(onOther.state).toEqual({ templateId: 'p2', clicks: 1 });
  });

  it('after the quiet time sends only a status the server does not have yet', () => {
    expect(needsSending(true, false)).toBe(true);
    expect(needsSending(false, true)).toBe(true);
    expect(needsSending(true, true)).toBe(false);
    expect(needsSending(false, false)).toBe(false);
    expect(needsSending(false, null)).toBe(true);
  });
});

describe('applyLike', () => {
  it('counts a like and an unlike', () => {
    expect(applyLike({ like: false, totallikes: 4 }, true)).toEqual({ like: true, totallikes: 5 });
    expect(applyLike({ like: true, totallikes: 5 }, false)).toEqual({ like: false, totallikes: 4 });
  });

  it('leaves the view alone when nothing changes and never counts below zero', () => {
    const view = { like: true, totallikes: 2 };
    expect(applyLike(view, true)).toBe(view);
    expect(applyLike({ like: true, totallikes: 0 }, false)).toEqual({ like: false, totallikes: 0 });
  });
});
