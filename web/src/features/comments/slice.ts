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
};

export const commentsSlice = createSlice({
  name: 'comments',
  initialState,
  reducers: {
    commentsOpened(_state, action: PayloadAction<string>) {
      return { ...initialState, templateId: action.payload, status: 'loading' };
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
    commentAddFailed(state) {
      state.adding = false;
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
      state.editingId = null;
      state.editDraft = '';
      state.savingEdit = false;
    },
    editSubmitted(state) {
      state.savingEdit = true;
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
    commentEditFailed(state) {
      state.savingEdit = false;
    },
    deleteAsked(state, action: PayloadAction<string>) {
      state.confirmDeleteId = action.payload;
    },
    deleteDismissed(state) {
      state.confirmDeleteId = null;
    },
    deleteConfirmed(state) {
      state.deleting = true;
    },
    commentDeleted(state, action: PayloadAction<{ templateId: string; id: string }>) {
      state.deleting = false;
      state.confirmDeleteId = null;
      state.items = state.items.filter((c) => c._id !== action.payload.id);
      if (state.editingId === action.payload.id) state.editingId = null;
    },
    commentDeleteFailed(state) {
      state.deleting = false;
      state.confirmDeleteId = null;
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
