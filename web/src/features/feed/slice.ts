import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '../auth/slice';
import { FIRST_MORE_PAGE, followLike, withPage } from './paging';
import { ALL_TOPICS, nextTotal, type Topic, type TopicCount } from './topicChips';
import type { FeedPost, FeedTab } from './types';

type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';

export interface FeedState {
  tab: FeedTab | null;
  /** First page of the current list. */
  status: LoadStatus;
  /** Today's post (at most one) or the all-posts list. */
  posts: FeedPost[];
  /** The text shown instead of posts when the first call failed. */
  failure: string;
  /** Today's call answered without a post: the server's message, if any. */
  todayMessage: string;
  /** The chosen topic chip; '' is All. */
  topicId: string;
  /** Next all-posts page to ask for (2 after the first). */
  nextPage: number;
  /** reader.md §3 liked reminders state: the liked list and the next page to ask for, starting at 2. */
  likedreminders: FeedPost[];
  likedpage: number;
  /** False once a page came back without posts. */
  hasMore: boolean;
  loadingMore: boolean;
  /** Text shown under the list when a next page failed ('' otherwise); scrolling stops asking until retried. */
  moreFailure: string;
  topics: Topic[];
  topicsStatus: LoadStatus;
  topicCounts: TopicCount[];
  totalPostsCount: number | null;
  /** The on/paused notification toggle is saving. */
  notificationSaving: boolean;
  /** `answered` false: no check-in answer yet, so there is no score to show (only the server's message). */
  progress: { status: LoadStatus; average: number; message: string; answered: boolean };
}

const initialState: FeedState = {
  tab: null,
  status: 'idle',
  posts: [],
  failure: '',
  todayMessage: '',
  topicId: ALL_TOPICS,
  nextPage: FIRST_MORE_PAGE,
  likedreminders: [],
  likedpage: FIRST_MORE_PAGE,
  hasMore: false,
  loadingMore: false,
  moreFailure: '',
  topics: [],
  topicsStatus: 'idle',
  topicCounts: [],
  totalPostsCount: null,
  notificationSaving: false,
  progress: { status: 'idle', average: 0, message: '', answered: false },
};

export interface PageLoaded {
  tab: FeedTab;
  topicId: string;
  page: number;
  posts: FeedPost[];
  topicCounts?: TopicCount[] | null;
  totalPostsCount?: number | null;
  message?: string;
}

function startList(state: FeedState) {
  state.status = 'loading';
  state.failure = '';
  state.todayMessage = '';
  state.hasMore = false;
  state.loadingMore = false;
  state.moreFailure = '';
  if (state.tab === 'liked') {
    state.likedreminders = [];
    state.likedpage = FIRST_MORE_PAGE;
  } else {
    state.posts = [];
    state.nextPage = FIRST_MORE_PAGE;
  }
}

export const feedSlice = createSlice({
  name: 'feed',
  initialState,
  reducers: {
    /** Open a tab: its first page is (re)loaded. */
    feedRequested(state, action: PayloadAction<FeedTab>) {
      state.tab = action.payload;
      startList(state);
    },
    /** A topic chip: the all-posts list reloads from page 1 (reader.md §4 Feed). */
    topicSelected(state, action: PayloadAction<string>) {
      state.topicId = action.payload;
      if (state.tab === 'all') startList(state);
    },
    /** Scrolled far enough (or Try again): the next page of the current list. */
    moreRequested(state) {
      state.loadingMore = true;
      state.moreFailure = '';
    },
    pageLoaded(state, action: PayloadAction<PageLoaded>) {
      const { tab, topicId, page, posts } = action.payload;
      // A page for a list no longer shown (tab or topic changed meanwhile) is dropped.
      if (tab !== state.tab || (tab === 'all' && topicId !== state.topicId)) return;
      state.status = 'loaded';
      state.loadingMore = false;
      if (tab === 'today') {
        state.posts = posts.slice(0, 1);
        state.todayMessage = action.payload.message ?? '';
        state.hasMore = false;
        return;
      }
      state.hasMore = posts.length > 0;
      if (tab === 'liked') {
        state.likedreminders = withPage(state.likedreminders, page, posts);
        state.likedpage = page + 1;
        return;
      }
      state.posts = withPage(state.posts, page, posts);
      state.nextPage = page + 1;
      if (Array.isArray(action.payload.topicCounts)) state.topicCounts = action.payload.topicCounts;
      state.totalPostsCount = nextTotal(state.totalPostsCount, action.payload.totalPostsCount, topicId);
    },
    feedFailed(state, action: PayloadAction<{ tab: FeedTab; text: string }>) {
      if (action.payload.tab !== state.tab) return;
      state.status = 'failed';
      state.failure = action.payload.text;
    },
    moreFailed(state, action: PayloadAction<{ tab: FeedTab; text: string }>) {
      if (action.payload.tab !== state.tab) return;
      state.loadingMore = false;
      state.moreFailure = action.payload.text;
    },
    topicsRequested(state) {
      if (state.topicsStatus !== 'loaded') state.topicsStatus = 'loading';
    },
    topicsLoaded(state, action: PayloadAction<Topic[]>) {
      state.topicsStatus = 'loaded';
      state.topics = action.payload;
    },
    topicsFailed(state) {
      state.topicsStatus = 'failed';
    },
    /**
     * A like or unlike made elsewhere (the post page): the cards follow, and so does the liked list
     * (reader.md §4 Like).
     */
    likeChanged(state, action: PayloadAction<{ post: FeedPost; like: boolean }>) {
      const { post, like } = action.payload;
      for (const shown of state.posts) {
        if (shown._id === post._id) {
          if (shown.like !== like && typeof shown.totallikes === 'number')
            shown.totallikes = Math.max(0, shown.totallikes + (like ? 1 : -1));
          shown.like = like;
        }
      }
      state.likedreminders = followLike(state.likedreminders, post, like);
    },
    notificationToggleRequested(state, _action: PayloadAction<boolean>) {
      state.notificationSaving = true;
    },
    notificationToggleFinished(state) {
      state.notificationSaving = false;
    },
    progressRequested(state) {
      if (state.progress.status !== 'loaded')
        state.progress = { status: 'loading', average: 0, message: '', answered: false };
    },
    progressLoaded(state, action: PayloadAction<{ average: number; message: string; answered: boolean }>) {
      state.progress = { status: 'loaded', ...action.payload };
    },
    progressFailed(state, action: PayloadAction<string>) {
      state.progress = { status: 'failed', average: 0, message: action.payload, answered: false };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  feedRequested,
  topicSelected,
  moreRequested,
  pageLoaded,
  feedFailed,
  moreFailed,
  topicsRequested,
  topicsLoaded,
  topicsFailed,
  likeChanged,
  notificationToggleRequested,
  notificationToggleFinished,
  progressRequested,
  progressLoaded,
  progressFailed,
} = feedSlice.actions;

/** Arrival from a 'continue reading' e-mail (?event=continue_reading): log email_continue_reading. */
export const continueReadingArrived = createAction<{ path: string; url: string; signingIn: boolean }>(
  'feed/continueReadingArrived',
);
