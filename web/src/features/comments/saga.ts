import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeEvery, takeLatest, takeLeading } from 'redux-saga/effects';
import type { User, UserResponse } from '../../shared/contracts';
import { errorMessage } from '../../shared/http';
import { notifyError, notifySuccess } from '../../shared/notify';
import { readToken } from '../../shared/storage';
import { selectUser } from '../auth/selectors';
import { userUpdated } from '../auth/slice';
import { addComment, deleteComment, editComment, fetchComments, updateName } from './api';
import { canSendComment, commentFailureText, NAME_UPDATED } from './commentRules';
import { selectComments } from './selectors';
import {
  type CommentsState,
  commentAdded,
  commentAddFailed,
  commentDeleted,
  commentDeleteFailed,
  commentEdited,
  commentEditFailed,
  commentSubmitted,
  commentsOpened,
  commentsPageFailed,
  commentsPageLoaded,
  commentsRetried,
  deleteConfirmed,
  editSubmitted,
  moreCommentsRequested,
  nameSaveFinished,
  nameSubmitted,
} from './slice';
import type { PostComment } from './types';

function* loadPage(templateId: string, page: number): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof fetchComments>> = yield call(
      fetchComments,
      token,
      templateId,
      page,
    );
    const comments = Array.isArray(response.comments) ? response.comments : [];
    yield put(commentsPageLoaded({ templateId, page, comments }));
  } catch (error) {
    yield call([console, console.debug], 'Comments unavailable:', error);
    yield put(commentsPageFailed({ templateId, page }));
  }
}

function* loadFirstPage(action: PayloadAction<string>): SagaIterator {
  yield call(loadPage, action.payload, 1);
}

function* loadNextPage(): SagaIterator {
  const state: CommentsState = yield select(selectComments);
  if (state.templateId) yield call(loadPage, state.templateId, state.page + 1);
}

/** The added comment as shown: the server's fields, completed with the author (the reader) and now. */
function shownComment(
  added: Partial<PostComment> | null | undefined,
  message: string,
  user: User | null,
): PostComment {
  return {
    _id: added?._id ?? `local-${Date.now()}`,
    message: added?.message ?? message,
    createdAt: added?.createdAt ?? new Date().toISOString(),
    userDetails: added?.userDetails ?? {
      firstname: user?.firstname ?? '',
      lastname: user?.lastname ?? '',
    },
    mine: true,
  };
}

/**
 * reader.md §8 only logs comment add/edit/delete failures; the reader is told as well (the draft is kept, so Retry
 * sends it again), since a comment that silently vanishes reads as sent.
 */
function* add(): SagaIterator {
  const state: CommentsState = yield select(selectComments);
  const templateId = state.templateId;
  const message = state.draft;
  if (!templateId || !canSendComment(message)) {
    yield put(commentAddFailed(null));
    return;
  }
  try {
    const user: User | null = yield select(selectUser);
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof addComment>> = yield call(
      addComment,
      token,
      templateId,
      message,
    );
    yield put(commentAdded({ templateId, comment: shownComment(response.comment, message, user) }));
  } catch (error) {
    yield call([console, console.error], 'Comment not added:', error);
    yield put(commentAddFailed(commentFailureText('sent', error)));
  }
}

function* edit(): SagaIterator {
  const state: CommentsState = yield select(selectComments);
  const id = state.editingId;
  const message = state.editDraft;
  if (!id || !canSendComment(message)) {
    yield put(commentEditFailed(null));
    return;
  }
  try {
    const token: string | null = yield call(readToken);
    yield call(editComment, token, id, message);
    yield put(commentEdited({ id, message }));
  } catch (error) {
    yield call([console, console.error], 'Comment not edited:', error);
    yield put(commentEditFailed(commentFailureText('updated', error)));
  }
}

function* remove(): SagaIterator {
  const state: CommentsState = yield select(selectComments);
  const id = state.confirmDeleteId;
  const templateId = state.templateId;
  if (!id || !templateId) {
    yield put(commentDeleteFailed(null));
    return;
  }
  try {
    const token: string | null = yield call(readToken);
    yield call(deleteComment, token, id);
    yield put(commentDeleted({ templateId, id }));
  } catch (error) {
    yield call([console, console.error], 'Comment not deleted:', error);
    yield put(commentDeleteFailed(commentFailureText('deleted', error)));
  }
}

function* saveName(action: PayloadAction<{ firstname: string; lastname: string }>): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: UserResponse = yield call(
      updateName,
      token,
      action.payload.firstname.trim(),
      action.payload.lastname.trim(),
    );
    yield put(userUpdated(response.user));
    yield call(notifySuccess, NAME_UPDATED);
  } catch (error) {
    yield call(notifyError, errorMessage(error));
  } finally {
    yield put(nameSaveFinished());
  }
}

export function* commentsSaga(): SagaIterator {
  yield all([
    takeLatest([commentsOpened, commentsRetried], loadFirstPage),
    takeLeading(moreCommentsRequested, loadNextPage),
    takeLeading(commentSubmitted, add),
    takeLeading(editSubmitted, edit),
    takeEvery(deleteConfirmed, remove),
    takeLeading(nameSubmitted, saveName),
  ]);
}
