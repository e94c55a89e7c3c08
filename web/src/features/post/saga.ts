import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator, Task } from 'redux-saga';
import { all, call, cancel, delay, fork, put, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import type { SessionResponse } from '../../shared/contracts';
import { ApiError, errorMessage, isOutage } from '../../shared/http';
import { notifyError } from '../../shared/notify';
import { readToken, storeToken } from '../../shared/storage';
import { signInWithLinkToken } from '../auth/api';
import { selectIsLogin } from '../auth/selectors';
import { signedIn } from '../auth/slice';
import { sendEventLog } from '../eventlog/api';
import { selectSettings } from '../settings/selectors';
import type { SiteSettings } from '../settings/types';
import { type ModalReason, signInModalFinished, signInModalOpened } from '../signin-modal/slice';
import { withLoadingOverlay } from '../ui/saga';
import { fetchPost, sendLike } from './api';
import { initialLikeSync, LIKE_DEBOUNCE_MS, type LikeSyncState, likeClick, needsSending } from './likeSync';
import {
  cleanPostPath,
  type PostEventType,
  type PostQuery,
  postEvent,
  postFailureText,
  readPostQuery,
} from './postRules';
import { selectLikeConfirmedFor, selectPost, selectPostState } from './selectors';
import {
  commentLinkClicked,
  likeControlClicked,
  likeFailed,
  likeSaved,
  likeToggled,
  type PostState,
  postFailed,
  postLoaded,
  postOpened,
  shareMenuOpened,
} from './slice';
import type { PostDetail } from './types';

/**
 * Drops the spent link parameters from the address bar without a route change (the page stays as it is, and the
 * visit is not counted again); the router's history entry state is kept.
 */
function replaceAddress(path: string): void {
  window.history.replaceState(window.history.state, '', path);
}

const LIKE_NOT_SAVED = 'Your like could not be saved. Please try again.';

function* logEvent(
  eventType: PostEventType,
  templateId: string,
  metadata?: Record<string, string>,
): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    yield call(sendEventLog, postEvent(token, eventType, templateId, metadata));
  } catch (error) {
    // reader.md §7: event log failures are only logged.
    yield call([console, console.debug], 'Event log not sent:', error);
  }
}

/**
 * The e-mail's sign-in link (uid): sign in first. A refused link (already spent by an earlier click, expired, ended
 * by a sign-out) leaves a signed-in reader as they are, quietly; a signed-out one is told why.
 */
function* spendLinkToken(uid: string): SagaIterator {
  try {
    const session: SessionResponse = yield call(signInWithLinkToken, uid);
    yield call(storeToken, session.token);
    yield put(signedIn(session.user));
  } catch (error) {
    const isLogin: boolean = yield select(selectIsLogin);
    if (!isLogin) yield call(notifyError, errorMessage(error));
  }
}

function* loadPost(id: string): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof fetchPost>> = yield call(fetchPost, id, token);
    if (!response.template || typeof response.template !== 'object') throw new Error('No post in the answer');
    // The page asked for this id; an answer naming none is taken as this post.
    const post: PostDetail = { ...response.template, _id: response.template._id || id };
    yield put(postLoaded(post));
    return post;
  } catch (error) {
    yield call([console, console.debug], 'Post unavailable:', error);
    const settings: SiteSettings = yield select(selectSettings);
    yield put(
      postFailed({
        id,
        failure: postFailureText(error, settings.postsingular),
        retryable: !(error instanceof ApiError) || isOutage(error),
      }),
    );
    return null;
  }
}

/** Like the post (never unlike: a=like and the modal's 'save this post' both mean like). */
function* likePost(post: PostDetail): SagaIterator {
  const current: PostDetail | null = yield select(selectPost);
  if (current && current._id === post._id && current.like !== true)
    yield put(likeToggled({ templateId: post._id, liked: true }));
}

function* openPost(action: PayloadAction<{ id: string; search: string }>): SagaIterator {
  const { id, search } = action.payload;
  const query: PostQuery = readPostQuery(search);
  if (query.uid) yield* withLoadingOverlay(spendLinkToken, query.uid);
  // Only while the reader is still on the address that carried them.
  if ((query.uid || query.userid || query.action) && window.location.search === search)
    yield call(replaceAddress, cleanPostPath(window.location.pathname, search, window.location.hash));
  const post: PostDetail | null = yield call(loadPost, id);
  if (!post) return;
  if (query.action === 'like') {
    yield fork(logEvent, 'email_like_click', id, query.userid ? { userid: query.userid } : {});
    const isLogin: boolean = yield select(selectIsLogin);
    if (isLogin) yield call(likePost, post);
    else yield put(signInModalOpened('like'));
  }
  if (query.action === 'share') yield put(shareMenuOpened());
}

/** Signed in through the modal: the post again (what the reader may read changed), then the like asked for. */
function* afterModalSignIn(action: PayloadAction<ModalReason | null>): SagaIterator {
  const state: PostState = yield select(selectPostState);
  if (!state.id) return;
  const post: PostDetail | null = yield call(loadPost, state.id);
  if (post && action.payload === 'like') yield call(likePost, post);
}

function* likeControl(action: PayloadAction<string>): SagaIterator {
  const templateId = action.payload;
  yield fork(logEvent, 'web_like_click', templateId);
  const isLogin: boolean = yield select(selectIsLogin);
  if (!isLogin) {
    yield put(signInModalOpened('like'));
    return;
  }
  const post: PostDetail | null = yield select(selectPost);
  if (post && post._id === templateId) yield put(likeToggled({ templateId, liked: post.like !== true }));
}

function* pushLike(templateId: string, liked: boolean, onlyIfChanged: boolean): SagaIterator {
  if (onlyIfChanged) {
    const confirmed: boolean | null = yield select(selectLikeConfirmedFor, templateId);
    if (!needsSending(liked, confirmed)) return;
  }
  try {
    const token: string | null = yield call(readToken);
    yield call(sendLike, token, templateId, liked);
    yield put(likeSaved({ templateId, liked }));
  } catch (error) {
    yield call([console, console.debug], 'Like not saved:', error);
    yield put(likeFailed(templateId));
    yield call(notifyError, errorMessage(error, LIKE_NOT_SAVED), 'like-not-saved');
  }
}

function* pushLikeAfterQuiet(templateId: string, liked: boolean): SagaIterator {
  yield delay(LIKE_DEBOUNCE_MS);
  yield call(pushLike, templateId, liked, true);
}

/**
 * reader.md §4 Like: every toggle shows at once (the reducer); the first click on a post is sent immediately, later
 * ones once 1.5 s pass without another click (likeSync.ts decides). A pending send survives leaving the post.
 */
function* likeDebounce(): SagaIterator {
  let sync: LikeSyncState = initialLikeSync;
  let quiet: Task | null = null;
  while (true) {
    const action: ReturnType<typeof likeToggled> | ReturnType<typeof postOpened> = yield take([
      likeToggled,
      postOpened,
    ]);
    if (postOpened.match(action)) {
      sync = initialLikeSync;
      quiet = null;
      continue;
    }
    const { templateId, liked } = action.payload;
    const decision = likeClick(sync, templateId);
    sync = decision.state;
    if (quiet) yield cancel(quiet);
    quiet = null;
    if (decision.plan === 'sendNow') yield fork(pushLike, templateId, liked, false);
    else quiet = yield fork(pushLikeAfterQuiet, templateId, liked);
  }
}

function* commentLink(action: PayloadAction<string>): SagaIterator {
  yield call(logEvent, 'web_comment_click', action.payload);
}

export function* postSaga(): SagaIterator {
  yield all([
    takeLatest(postOpened, openPost),
    takeLatest(signInModalFinished, afterModalSignIn),
    takeEvery(likeControlClicked, likeControl),
    takeEvery(commentLinkClicked, commentLink),
    fork(likeDebounce),
  ]);
}
