import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '../auth/slice';
import { commentAdded, commentDeleted } from '../comments/slice';
import { applyLike } from './likeSync';
import type { PostDetail } from './types';

export interface PostState {
  id: string | null;
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  post: PostDetail | null;
  /** The error view's line. */
  failure: string;
  /** The failure was an outage (no answer or a 5xx), so trying again may work; a missing post will not. */
  retryable: boolean;
  /** The like status the server last accepted for this post; what a failed like call goes back to. */
  likeConfirmed: boolean;
  /** The share menu was asked open (a=share). */
  shareOpen: boolean;
}

const initialState: PostState = {
  id: null,
  status: 'idle',
  post: null,
  failure: '',
  retryable: false,
  likeConfirmed: false,
  shareOpen: false,
};

interface LikePayload {
  templateId: string;
  liked: boolean;
}

function setLike(state: PostState, templateId: string, wanted: boolean): void {
  if (!state.post || state.post._id !== templateId) return;
  const view = applyLike({ like: state.post.like === true, totallikes: state.post.totallikes ?? 0 }, wanted);
  state.post.like = view.like;
  state.post.totallikes = view.totallikes;
}

export const postSlice = createSlice({
  name: 'post',
  initialState,
  reducers: {
    /** The page of post `id` opened; `search` is its query (uid, userid, a). */
    postOpened(state, action: PayloadAction<{ id: string; search: string }>) {
      state.id = action.payload.id;
      state.status = 'loading';
      state.post = null;
      state.failure = '';
      state.shareOpen = false;
    },
    postLoaded(state, action: PayloadAction<PostDetail>) {
      if (action.payload._id !== state.id) return;
      state.status = 'loaded';
      state.post = action.payload;
      state.likeConfirmed = action.payload.like === true;
    },
    postFailed(state, action: PayloadAction<{ id: string; failure: string; retryable: boolean }>) {
      if (action.payload.id !== state.id) return;
      state.status = 'failed';
      state.failure = action.payload.failure;
      state.retryable = action.payload.retryable;
    },
    /** The local toggle (reader.md §4: at once); the saga tells the server. */
    likeToggled(state, action: PayloadAction<LikePayload>) {
      setLike(state, action.payload.templateId, action.payload.liked);
    },
    likeSaved(state, action: PayloadAction<LikePayload>) {
      if (state.post?._id === action.payload.templateId) state.likeConfirmed = action.payload.liked;
    },
    /** The server did not take the like: back to what it last accepted. */
    likeFailed(state, action: PayloadAction<string>) {
      setLike(state, action.payload, state.likeConfirmed);
    },
    shareMenuOpened(state) {
      state.shareOpen = true;
    },
    shareMenuClosed(state) {
      state.shareOpen = false;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(commentAdded, (state, action) => {
        if (state.post && state.post._id === action.payload.templateId)
          state.post.totalcomments = (state.post.totalcomments ?? 0) + 1;
      })
      .addCase(commentDeleted, (state, action) => {
        if (state.post && state.post._id === action.payload.templateId)
          state.post.totalcomments = Math.max(0, (state.post.totalcomments ?? 0) - 1);
      })
      .addCase(signedOut, () => initialState);
  },
});

export const {
  postOpened,
  postLoaded,
  postFailed,
  likeToggled,
  likeSaved,
  likeFailed,
  shareMenuOpened,
  shareMenuClosed,
} = postSlice.actions;

/** A click on the like control (the saga decides: sign-in modal, or toggle and tell the server). */
export const likeControlClicked = createAction<string>('post/likeControlClicked');
/** A click on the comment count link (logged as web_comment_click). */
export const commentLinkClicked = createAction<string>('post/commentLinkClicked');
