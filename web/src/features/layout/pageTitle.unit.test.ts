import { describe, expect, it } from 'vitest';
import { NOT_FOUND_TITLE, POST_NOT_FOUND_TITLE, titleFor } from './pageTitle';

const base = {
  siteTitle: 'Nudge',
  feedTabLabel: 'All posts',
  post: { id: null, heading: null, failure: null },
};

describe('titleFor', () => {
  it('names every reader page, the feed by its tab', () => {
    expect(titleFor({ ...base, pathname: '/' })).toBe('All posts | Nudge');
    expect(titleFor({ ...base, pathname: '/setting' })).toBe('Settings | Nudge');
    expect(titleFor({ ...base, pathname: '/setting/' })).toBe('Settings | Nudge');
    expect(titleFor({ ...base, pathname: '/unsubscribe/abc' })).toBe('Notification preference | Nudge');
  });

  it('gives the 404 page its own title', () => {
    expect(titleFor({ ...base, pathname: '/nope' })).toBe(`${NOT_FOUND_TITLE} | Nudge`);
    expect(titleFor({ ...base, pathname: '/post/1/extra' })).toBe(`${NOT_FOUND_TITLE} | Nudge`);
  });

  it('titles a post by its heading, a post that failed as not found, and waits while it loads', () => {
    const loaded = { id: 'p1', heading: 'Walk after lunch', failure: null };
    expect(titleFor({ ...base, pathname: '/post/p1', post: loaded })).toBe('Walk after lunch | Nudge');
    expect(titleFor({ ...base, pathname: '/post/p2', post: loaded })).toBe('Nudge');
    const missing = { id: 'p2', heading: null, failure: '' };
    expect(titleFor({ ...base, pathname: '/post/p2', post: missing })).toBe(
      `${POST_NOT_FOUND_TITLE} | Nudge`,
    );
    const outage = { id: 'p2', heading: null, failure: 'Posts can’t be loaded right now.' };
    expect(titleFor({ ...base, pathname: '/post/p2', post: outage })).toBe(
      'Posts can’t be loaded right now | Nudge',
    );
  });
});
