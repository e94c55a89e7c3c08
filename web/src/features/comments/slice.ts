import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '../auth/slice';
import { appendPage } from './commentRules';
import type { PostComment } from './types';

export interface CommentsState {
  templateId: string | null;
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  items: PostComment[];
  /** The last page fetched (1-based) and how many comments it held. */
  page: number;
  lastPageSize: number;
  loadingMore: boolean;
  draft: string;
  adding: boolean;
  editingId: string | null;
  editDraft: string;
  savingEdit: boolean;
  /** The comment the confirm dialog asks about. */
  confirmDeleteId: string | null;
  deleting: boolean;
  savingName: boolean;
  /** Why the last add, edit or delete failed, shown with a Retry; null when nothing failed. */
  failure: { action: 'add' | 'edit' | 'delete'; message: string } | null;
}

const initialState: CommentsState = {
  templateId: null,
  status: 'idle',
  items: [],
  page: 0,
  lastPageSize: 0,
  loadingMore: false,
  draft: '',
  adding: false,
  editingId: null,
  editDraft: '',
  savingEdit: false,
  confirmDeleteId: null,
  deleting: false,
  savingName: false,
  failure: null,
};

export const commentsSlice = createSlice({
  name: 'comments',
  initialState,
  reducers: {
    commentsOpened(_state, action: PayloadAction<string>) {
      return { ...initialState, templateId: action.payload, status: 'loading' };
    },
    /** The first page again, after it failed to load. */
    commentsRetried(state, _action: PayloadAction<string>) {
      state.status = 'loading';
    },
    moreCommentsRequested(state) {
      state.loadingMore = true;
    },
    commentsPageLoaded(
      state,
      action: PayloadAction<{ templateId: string; page: number; comments: PostComment[] }>,
    ) {
      if (action.payload.templateId !== state.templateId) return;
      state.status = 'loaded';
      state.loadingMore = false;
      state.page = action.payload.page;
      state.lastPageSize = action.payload.comments.length;
      state.items =
        action.payload.page === 1
          ? action.payload.comments
          : appendPage(state.items, action.payload.comments);
    },
    commentsPageFailed(state, action: PayloadAction<{ templateId: string; page: number }>) {
      if (action.payload.templateId !== state.templateId) return;
      state.loadingMore = false;
      if (action.payload.page === 1) state.status = 'failed';
    },
    draftChanged(state, action: PayloadAction<string>) {
      state.draft = action.payload;
    },
    commentSubmitted(state) {
      state.adding = true;
      state.failure = null;
    },
    commentAdded(state, action: PayloadAction<{ templateId: string; comment: PostComment }>) {
      state.adding = false;
      if (action.payload.templateId !== state.templateId) return;
      state.draft = '';
      state.items = [
        action.payload.comment,
        ...state.items.filter((c) => c._id !== action.payload.comment._id),
      ];
    },
    commentAddFailed(state, action: PayloadAction<string | null>) {
      state.adding = false;
      state.failure = action.payload ? { action: 'add', message: action.payload } : null;
    },
    editStarted(state, action: PayloadAction<string>) {
      const comment = state.items.find((c) => c._id === action.payload);
      if (!comment) return;
      state.editingId = comment._id;
      state.editDraft = comment.message;
    },
    editDraftChanged(state, action: PayloadAction<string>) {
      state.editDraft = action.payload;
    },
    editCancelled(state) {
      state.failure = null;
      state.editingId = null;
      state.editDraft = '';
      state.savingEdit = false;
    },
    editSubmitted(state) {
      state.savingEdit = true;
      state.failure = null;
    },
    commentEdited(state, action: PayloadAction<{ id: string; message: string }>) {
      const comment = state.items.find((c) => c._id === action.payload.id);
      if (comment) comment.message = action.payload.message;
      state.savingEdit = false;
      if (state.editingId === action.payload.id) {
        state.editingId = null;
        state.editDraft = '';
      }
    },
    commentEditFailed(state, action: PayloadAction<string | null>) {
      state.savingEdit = false;
      state.failure = action.payload ? { action: 'edit', message: action.payload } : null;
    },
    deleteAsked(state, action: PayloadAction<string>) {
      state.confirmDeleteId = action.payload;
    },
    deleteDismissed(state) {
      state.confirmDeleteId = null;
      state.failure = null;
    },
    deleteConfirmed(state) {
      state.deleting = true;
      state.failure = null;
    },
    commentDeleted(state, action: PayloadAction<{ templateId: string; id: string }>) {
      state.deleting = false;
      state.confirmDeleteId = null;
      state.items = state.items.filter((c) => c._id !== action.payload.id);
      if (state.editingId === action.payload.id) state.editingId = null;
    },
    /** The dialog stays open with the reason, so Delete is the retry. */
    commentDeleteFailed(state, action: PayloadAction<string | null>) {
      state.deleting = false;
      if (action.payload) state.failure = { action: 'delete', message: action.payload };
      else state.confirmDeleteId = null;
    },
    nameSubmitted(state, _action: PayloadAction<{ firstname: string; lastname: string }>) {
      state.savingName = true;
    },
    nameSaveFinished(state) {
      state.savingName = false;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, (state) => {
      state.draft = '';
      state.editingId = null;
      state.confirmDeleteId = null;
    });
  },
});

export const {
  commentsOpened,
  commentsRetried,
  moreCommentsRequested,
  commentsPageLoaded,
  commentsPageFailed,
  draftChanged,
  commentSubmitted,
  commentAdded,
  commentAddFailed,
  editStarted,
  editDraftChanged,
  editCancelled,
  editSubmitted,
  commentEdited,
  commentEditFailed,
  deleteAsked,
  deleteDismissed,
  deleteConfirmed,
  commentDeleted,
  commentDeleteFailed,
  nameSubmitted,
  nameSaveFinished,
} = commentsSlice.actions;
