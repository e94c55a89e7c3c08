import type { RootState } from '../../app/store';

export const selectFeed = (state: RootState) => state.feed;
export const selectProgress = (state: RootState) => state.feed.progress;
