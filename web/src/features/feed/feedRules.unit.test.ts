import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http';
import {
  emptyFeedText,
  FEED_UNAVAILABLE,
  feedFailureText,
  feedTabFor,
  feedTabHref,
  plainText,
} from './feedRules';

describe('feed tabs', () => {
  it('follow the page query for signed-in readers', () => {
    expect(feedTabFor(null, true)).toBe('today');
    expect(feedTabFor('all', true)).toBe('all');
    expect(feedTabFor('liked', true)).toBe('liked');
    expect(feedTabFor('other', true)).toBe('today');
  });

  it('show all posts to signed-out visitors', () => {
    expect(feedTabFor('liked', false)).toBe('all');
    expect(feedTabFor(null, false)).toBe('all');
  });

  it('link to page=all and page=liked', () => {
    expect(feedTabHref('today')).toBe('/');
    expect(feedTabHref('all')).toBe('/?page=all');
    expect(feedTabHref('liked')).toBe('/?page=liked');
  });
});

describe('feed texts', () => {
  it('say plainly that posts cannot be loaded during an outage', () => {
    expect(feedFailureText('all', new ApiError('The content service is not available yet', 503))).toBe(
      FEED_UNAVAILABLE,
    );
    expect(feedFailureText('today', new ApiError('offline', 0))).toBe("Failed to load today's post");
    expect(feedFailureText('today', new ApiError('Internal error', 500))).toBe("Failed to load today's post");
    expect(feedFailureText('all', new TypeError('boom'))).toBe(FEED_UNAVAILABLE);
  });

  it("show the server's words when it refuses", () => {
    expect(feedFailureText('today', new ApiError('No post for today yet', 404))).toBe(
      'No post for today yet',
    );
    expect(feedFailureText('today', new ApiError('', 400))).toBe("Failed to load today's post");
  });

  it('use the empty feed texts of reader.md with the post wording', () => {
    expect(emptyFeedText('all', 'posts')).toBe('No more posts to show . Please select any topics');
    expect(emptyFeedText('liked', 'reminders')).toBe('No liked reminders present...');
    expect(emptyFeedText('all', 'posts', 'Nutrition')).toBe(
      'Nutrition has no posts yet. Choose All to see every topic.',
    );
  });

  it('turn a marked-up body into plain text for the card preview', () => {
    expect(plainText('<p>Take a <b>short</b> walk&nbsp;today</p>\n<p>Tom &amp; Jerry &lt;3</p>')).toBe(
      'Take a short walk today Tom & Jerry <3',
    );
    expect(plainText(undefined)).toBe('');
  });
});
