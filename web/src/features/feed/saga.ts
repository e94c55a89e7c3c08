import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, delay, put, race, select, take, takeEvery, takeLatest } from 'redux-saga/effects';
import type { User } from '../../shared/contracts';
import { errorMessage } from '../../shared/http';
import { notifyError, notifySuccess } from '../../shared/notify';
import { readToken } from '../../shared/storage';
import { selectUser } from '../auth/selectors';
import { signedIn } from '../auth/slice';
import { sendEventLog } from '../eventlog/api';
import { fetchAllTopics } from '../profile/api';
import { updateSignedInProfile } from '../profile/saga';
import { fetchAllPosts, fetchLikedPosts, fetchProgress, fetchTodayPost } from './api';
import { CONTINUE_READING, continueReadingEvent } from './continueReading';
import { feedFailureText } from './feedRules';
import { NOTIFICATION_UPDATED, notificationInfo } from './notificationToggle';
import { likedPosts } from './paging';
import { selectFeed, selectNextPage } from './selectors';
import {
  continueReadingArrived,
  type FeedState,
  feedFailed,
  feedRequested,
  moreFailed,
  moreRequested,
  notificationToggleFinished,
  notificationToggleRequested,
  type PageLoaded,
  pageLoaded,
  progressFailed,
  progressLoaded,
  progressRequested,
  topicSelected,
  topicsFailed,
  topicsLoaded,
  topicsRequested,
} from './slice';
import type { Topic } from './topicChips';
import type { FeedTab } from './types';

const PROGRESS_FAILED = 'An error occurred while fetching the average data.';
/** How long an e-mail arrival waits for its sign-in link to be spent before logging without a token. */
const SIGN_IN_WAIT_MS = 10_000;

/** One page of a tab's list. */
function* fetchPage(tab: FeedTab, page: number, topicId: string): SagaIterator<PageLoaded> {
  const user: User | null = yield select(selectUser);
  const token: string | null = yield call(readToken);
  // A hint only: the server decides what a reader may read from the token (DESIGN.md §6).
  const subscription = user?.role === 'premium';
  if (tab === 'today') {
    const response: Awaited<ReturnType<typeof fetchTodayPost>> = yield call(fetchTodayPost, token);
    return {
      tab,
      topicId,
      page,
      posts: response.template?._id ? [response.template] : [],
      message: response.message ?? '',
    };
  }
  if (tab === 'liked') {
    const response: Awaited<ReturnType<typeof fetchLikedPosts>> = yield call(
      fetchLikedPosts,
      page,
      token,
      subscription,
    );
    return { tab, topicId, page, posts: likedPosts(response.templates) };
  }
  const response: Awaited<ReturnType<typeof fetchAllPosts>> = yield call(
    fetchAllPosts,
    page,
    topicId,
    subscription,
    token,
  );
  return {
    tab,
    topicId,
    page,
    posts: Array.isArray(response.templates) ? response.templates.filter((post) => post?._id) : [],
    topicCounts: response.topicCounts,
    totalPostsCount: response.totalPostsCount,
  };
}

/** Page 1 of the current tab (a tab opened, or a topic chip chosen). */
function* loadFirstPage(): SagaIterator {
  const feed: FeedState = yield select(selectFeed);
  const tab = feed.tab;
  if (!tab) return;
  try {
    const loaded: PageLoaded = yield call(fetchPage, tab, 1, feed.topicId);
    yield put(pageLoaded(loaded));
  } catch (error) {
    yield call([console, console.debug], 'Feed unavailable:', error);
    yield put(feedFailed({ tab, text: feedFailureText(tab, error) }));
  }
}

/** The next page (2, 3, ...) of the current list, asked for by scrolling. */
function* loadNextPage(): SagaIterator {
  const feed: FeedState = yield select(selectFeed);
  const tab = feed.tab;
  if (!tab || tab === 'today') return;
  const page: number = yield select(selectNextPage);
  try {
    const loaded: PageLoaded = yield call(fetchPage, tab, page, feed.topicId);
    yield put(pageLoaded(loaded));
  } catch (error) {
    yield call([console, console.debug], 'Next feed page unavailable:', error);
    yield put(moreFailed({ tab, text: feedFailureText(tab === 'liked' ? 'liked' : 'all', error) }));
  }
}

function* loadList(action: { type: string }): SagaIterator {
  if (moreRequested.match(action)) yield call(loadNextPage);
  else yield call(loadFirstPage);
}

function* loadTopics(): SagaIterator {
  const feed: FeedState = yield select(selectFeed);
  if (feed.topicsStatus === 'loaded') return;
  try {
    const response: { topics?: Topic[] } = yield call(fetchAllTopics);
    yield put(topicsLoaded(Array.isArray(response.topics) ? response.topics : []));
  } catch (error) {
    // Only the All chip is shown without topics.
    yield call([console, console.debug], 'Topics unavailable:', error);
    yield put(topicsFailed());
  }
}

function* loadProgress(): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof fetchProgress>> = yield call(fetchProgress, token);
    const average = Math.min(100, Math.max(0, Number(response.average) || 0));
    // No answer yet (the server counts them): no score, only the server's message (not '0 / 100').
    const answered = response.answers === undefined ? true : response.answers > 0;
    yield put(progressLoaded({ average, message: response.message ?? '', answered }));
  } catch (error) {
    // reader.md §8: the server's message, or the spec's own words.
    yield put(progressFailed(errorMessage(error, PROGRESS_FAILED)));
  }
}

/** The on/paused toggle: POST /api/user/update with the user's info and notiinfo.active set (reader.md §2, §8). */
function* saveNotificationState(action: PayloadAction<boolean>): SagaIterator {
  try {
    yield call(updateSignedInProfile, (user: User) => notificationInfo(user, action.payload));
    yield call(notifySuccess, NOTIFICATION_UPDATED, 'notification-updated');
  } catch (error) {
    yield call(notifyError, errorMessage(error), 'notification-update-failed');
  } finally {
    yield put(notificationToggleFinished());
  }
}

/**
 * email_continue_reading; when the e-mail link also signs the reader in, the event waits for that first. A signed-in
 * arrival also records the read of today's post (the post the reminder carried) as an e-mail read, type 2: today's
 * post call with `event: 'continue_reading'` (our addition to the call).
 */
function* logContinueReading(
  action: PayloadAction<{ path: string; url: string; signingIn: boolean }>,
): SagaIterator {
  if (action.payload.signingIn) yield race({ signedIn: take(signedIn), timeout: delay(SIGN_IN_WAIT_MS) });
  const token: string | null = yield call(readToken);
  try {
    yield call(sendEventLog, continueReadingEvent(token, action.payload.path, action.payload.url));
  } catch (error) {
    // reader.md §7: event log failures are only logged.
    yield call([console, console.debug], 'Event log not sent:', error);
  }
  if (!token) return;
  try {
    yield call(fetchTodayPost, token, CONTINUE_READING);
  } catch (error) {
    yield call([console, console.debug], 'E-mail read not recorded:', error);
  }
}

export function* feedSaga(): SagaIterator {
  yield all([
    // One list call at a time: a new tab or topic cancels a page still on its way.
    takeLatest([feedRequested, topicSelected, moreRequested], loadList),
    takeLatest(topicsRequested, loadTopics),
    takeLatest(progressRequested, loadProgress),
    takeLatest(notificationToggleRequested, saveNotificationState),
    takeEvery(continueReadingArrived, logContinueReading),
  ]);
}
