import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '../auth/slice';
import type { FeedPost, FeedTab } from './types';

type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

export interface FeedState {
  tab: FeedTab | null;
  status: LoadStatus;
  posts: FeedPost[];
  /** The text shown instead of posts when the call failed. */
  failure: string;
  progress: { status: LoadStatus; average: number; message: string };
}

const initialState: FeedState = {
  tab: null,
  status: 'idle',
  posts: [],
  failure: '',
  progress: { status: 'idle', average: 0, message: '' },
};

export const feedSlice = createSlice({
  name: 'feed',
  initialState,
  reducers: {
    feedRequested(state, action: PayloadAction<FeedTab>) {
      state.tab = action.payload;
      state.status = 'loading';
      state.posts = [];
      state.failure = '';
    },
    feedLoaded(state, action: PayloadAction<FeedPost[]>) {
      state.status = 'loaded';
      state.posts = action.payload;
    },
    feedFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.failure = action.payload;
    },
    progressRequested(state) {
      state.progress = { status: 'loading', average: 0, message: '' };
    },
    progressLoaded(state, action: PayloadAction<{ average: number; message: string }>) {
      state.progress = { status: 'loaded', ...action.payload };
    },
    progressFailed(state, action: PayloadAction<string>) {
      state.progress = { status: 'failed', average: 0, message: action.payload };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const { feedRequested, feedLoaded, feedFailed, progressRequested, progressLoaded, progressFailed } =
  feedSlice.actions;
