import { ApiError, isOutage } from '../../shared/http';
import type { FeedTab } from './types';

/** reader.md §2: signed-in readers have three tabs (query page=all / page=liked, else today); others see all posts. */
export function feedTabFor(page: string | null, isLogin: boolean): FeedTab {
  if (!isLogin) return 'all';
  if (page === 'all') return 'all';
  if (page === 'liked') return 'liked';
  return 'today';
}

export const feedTabHref = (tab: FeedTab): string =>
  tab === 'all' ? '/?page=all' : tab === 'liked' ? '/?page=liked' : '/';

export const FEED_UNAVAILABLE = "Posts can't be loaded right now.";
const TODAY_FAILED = "Failed to load today's post";

/**
 * What a failed feed call shows: a refusal gets the server's words; an outage one plain line, for today's post the
 * contract's own (reader.md §8: 'Failed to load today's post' or the server's error text).
 */
export function feedFailureText(tab: FeedTab, error: unknown): string {
  const fallback = tab === 'today' ? TODAY_FAILED : FEED_UNAVAILABLE;
  if (!(error instanceof ApiError) || isOutage(error)) return fallback;
  return error.message || fallback;
}

/**
 * reader.md §2 empty feed texts (spelling and spacing as in the spec). With a topic chosen the list is empty
 * because that topic has nothing yet, which the contract's 'Please select any topics' would misstate.
 */
export function emptyFeedText(tab: FeedTab, plural: string, topicName?: string): string {
  if (tab === 'liked') return `No liked ${plural} present...`;
  if (topicName) return `${topicName} has no ${plural} yet. Choose All to see every topic.`;
  return `No more ${plural} to show . Please select any topics`;
}

/** A post body as plain text (bodies may carry markup from the editor), for the card preview. */
export { plainText } from '../../shared/bodyText';
