import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { RootState } from '../../../app/store';
import { selectSettings } from '../../settings/selectors';
import { Spinner } from '../../ui/components/Spinner';
import { LoadingLine, RetryLine } from '../../ui/components/StatusLines';
import { emptyFeedText } from '../feedRules';
import {
  type ListState,
  SCROLL_THROTTLE_MS,
  type ScrollMetrics,
  shouldLoadMore,
  throttle,
} from '../infiniteScroll';
import { selectFeed, selectVisiblePosts } from '../selectors';
import { type FeedState, feedRequested, moreRequested } from '../slice';
import type { FeedTab } from '../types';
import { PostCard } from './PostCard';

export const FETCHING_MORE = 'Fetching more posts...';
export const NO_MORE = 'No more posts to show';

const listStateOf = (feed: FeedState): ListState => ({
  loaded: feed.status === 'loaded',
  hasMore: feed.hasMore,
  loadingMore: feed.loadingMore,
  moreFailed: feed.moreFailure !== '',
});

const windowMetrics = (): ScrollMetrics => ({
  scrollTop: window.scrollY,
  viewportHeight: window.innerHeight,
  scrollHeight: document.documentElement.scrollHeight,
});

/**
 * The posts of the current tab, or why there are none. All posts and Liked posts are infinite lists: past 80% of
 * the page (checked at most every 150 ms) the next page is asked for, until a page comes back empty.
 */
export function PostList({ tab }: { tab: FeedTab }) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const feed = useAppSelector(selectFeed);
  const posts = useAppSelector(selectVisiblePosts);
  const { postplural } = useAppSelector(selectSettings);
  const paged = tab !== 'today';

  // Reads the store itself (not this render's props) so a check right after a dispatch sees loadingMore.
  useEffect(() => {
    if (!paged) return;
    const check = throttle(() => {
      if (shouldLoadMore(listStateOf(selectFeed(store.getState())), windowMetrics()))
        dispatch(moreRequested());
    }, SCROLL_THROTTLE_MS);
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      check.cancel();
    };
  }, [paged, dispatch, store]);

  // After a page arrives the list may still not fill the screen (no scroll will come): check once more.
  const shown = posts.length;
  useEffect(() => {
    if (!paged || shown === 0) return;
    if (shouldLoadMore(listStateOf(selectFeed(store.getState())), windowMetrics())) dispatch(moreRequested());
  }, [paged, shown, dispatch, store]);

  if (feed.status === 'idle' || feed.status === 'loading')
    return <LoadingLine label={`Loading ${postplural}…`} size={28} hideLabel />;
  if (feed.status === 'failed')
    return (
      <RetryLine
        className="feed-notice"
        message={feed.failure}
        onRetry={() => dispatch(feedRequested(tab))}
      />
    );
  if (posts.length === 0)
    return (
      <p className="muted feed-notice">
        {tab === 'today' && feed.todayMessage
          ? feed.todayMessage
          : emptyFeedText(tab, postplural, feed.topics.find((t) => t._id === feed.topicId)?.topic)}
      </p>
    );
  return (
    <>
      <div className="post-list">
        {posts.map((post) => (
          <PostCard key={post._id} post={post} />
        ))}
      </div>
      {paged && (
        <div className="feed-more" role="status">
          {feed.loadingMore && (
            <span className="feed-more__loading">
              <Spinner size={20} />
              {FETCHING_MORE}
            </span>
          )}
          {!feed.loadingMore && feed.moreFailure && (
            <>
              <span className="muted">{feed.moreFailure}</span>
              <button
                type="button"
                className="button button--small button--secondary"
                onClick={() => dispatch(moreRequested())}
              >
                Retry
              </button>
            </>
          )}
          {!feed.loadingMore && !feed.moreFailure && !feed.hasMore && (
            <span className="muted">{NO_MORE}</span>
          )}
        </div>
      )}
    </>
  );
}
