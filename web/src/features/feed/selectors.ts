import type { RootState } from '../../app/store';
import type { FeedPost } from './types';

export const selectFeed = (state: RootState) => state.feed;
export const selectProgress = (state: RootState) => state.feed.progress;
export const selectNotificationSaving = (state: RootState) => state.feed.notificationSaving;

/** The posts of the shown tab: the liked list on Liked posts, else today's post or the all-posts list. */
export const selectVisiblePosts = (state: RootState): FeedPost[] =>
  state.feed.tab === 'liked' ? state.feed.likedreminders : state.feed.posts;

/** The page a scroll asks for next on the shown tab. */
export const selectNextPage = (state: RootState): number =>
  state.feed.tab === 'liked' ? state.feed.likedpage : state.feed.nextPage;
