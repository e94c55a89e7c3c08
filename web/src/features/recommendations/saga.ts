import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import { readToken } from '../../shared/storage';
import { fetchRecommendations, RECOMMENDATION_PAGE_SIZE } from './api';
import { appendRecommendations, moreRecommendations } from './recommendationRules';
import { selectRecommendations } from './selectors';
import {
  moreRecommendationsRequested,
  type RecommendationsState,
  recommendationsOpened,
  recommendationsPageFailed,
  recommendationsPageLoaded,
} from './slice';

function* loadPage(templateId: string, page: number): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof fetchRecommendations>> = yield call(
      fetchRecommendations,
      templateId,
      page,
      token,
    );
    const received = Array.isArray(response.templates) ? response.templates : [];
    const state: RecommendationsState = yield select(selectRecommendations);
    const shown = page === 1 ? [] : state.items;
    const items = appendRecommendations(shown, received, templateId);
    const hasMore = moreRecommendations({
      hasMore: response.hasMore,
      pageSize: RECOMMENDATION_PAGE_SIZE,
      received: received.length,
      added: items.length - shown.length,
    });
    yield put(recommendationsPageLoaded({ templateId, page, items, hasMore }));
  } catch (error) {
    yield call([console, console.debug], 'Recommendations unavailable:', error);
    yield put(recommendationsPageFailed({ templateId, page }));
  }
}

function* loadFirst(action: PayloadAction<string>): SagaIterator {
  yield call(loadPage, action.payload, 1);
}

function* loadNext(): SagaIterator {
  const state: RecommendationsState = yield select(selectRecommendations);
  if (state.templateId && state.hasMore) yield call(loadPage, state.templateId, state.page + 1);
}

export function* recommendationsSaga(): SagaIterator {
  yield all([
    takeLatest(recommendationsOpened, loadFirst),
    takeLeading(moreRecommendationsRequested, loadNext),
  ]);
}
