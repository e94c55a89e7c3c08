import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest } from 'redux-saga/effects';
import type { User } from '../../shared/contracts';
import { errorMessage } from '../../shared/http';
import { readToken } from '../../shared/storage';
import { selectUser } from '../auth/selectors';
import { fetchAllPosts, fetchLikedPosts, fetchProgress, fetchTodayPost } from './api';
import { feedFailureText } from './feedRules';
import {
  feedFailed,
  feedLoaded,
  feedRequested,
  progressFailed,
  progressLoaded,
  progressRequested,
} from './slice';
import type { FeedPost, FeedTab } from './types';

const PROGRESS_FAILED = 'An error occurred while fetching the average data.';

function* postsFor(tab: FeedTab): SagaIterator {
  const user: User | null = yield select(selectUser);
  const token: string | null = yield call(readToken);
  // A hint only: the server decides what a reader may read from the token (DESIGN.md §6).
  const subscription = user?.role === 'premium';
  if (tab === 'today') {
    const response: Awaited<ReturnType<typeof fetchTodayPost>> = yield call(fetchTodayPost, token);
    return response.template ? [response.template] : [];
  }
  if (tab === 'liked') {
    const response: Awaited<ReturnType<typeof fetchLikedPosts>> = yield call(
      fetchLikedPosts,
      1,
      token,
      subscription,
    );
    return (response.templates ?? []).flatMap((entry) =>
      entry.templateDetails ? [entry.templateDetails] : [],
    );
  }
  const response: Awaited<ReturnType<typeof fetchAllPosts>> = yield call(fetchAllPosts, 1, subscription);
  return response.templates ?? [];
}

function* loadFeed(action: PayloadAction<FeedTab>): SagaIterator {
  try {
    const posts: FeedPost[] = yield call(postsFor, action.payload);
    yield put(feedLoaded(posts));
  } catch (error) {
    yield call([console, console.debug], 'Feed unavailable:', error);
    yield put(feedFailed(feedFailureText(action.payload, error)));
  }
}

function* loadProgress(): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof fetchProgress>> = yield call(fetchProgress, token);
    const average = Math.min(100, Math.max(0, Number(response.average) || 0));
    yield put(progressLoaded({ average, message: response.message ?? '' }));
  } catch (error) {
    yield put(progressFailed(errorMessage(error, PROGRESS_FAILED)));
  }
}

export function* feedSaga(): SagaIterator {
  yield all([takeLatest(feedRequested, loadFeed), takeLatest(progressRequested, loadProgress)]);
}
