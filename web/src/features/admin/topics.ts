import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { rootReducer } from '../../app/store';
import { notifyError } from '../../shared/notify';
import { fetchTopics } from './api';
import type { Topic } from './types';

interface TopicsState {
  topics: Topic[];
  loading: boolean;
}

const topicsSlice = createSlice({
  name: 'topics',
  initialState: { topics: [], loading: false } as TopicsState,
  reducers: {
    topicsLoading(state) {
      state.loading = true;
    },
    topicsLoaded(state, action: PayloadAction<Topic[]>) {
      state.topics = action.payload;
      state.loading = false;
    },
    topicsFailed(state) {
      state.loading = false;
    },
  },
});

const injected = topicsSlice.injectInto(rootReducer);
export const selectTopics = (state: object): Topic[] => injected.selectSlice(state as never).topics;

/** admin.md §2: topics load once on entry when the list is empty; `force` reloads after an add. */
export const topicsNeeded = createAction<{ force?: boolean } | undefined>('topics/needed');

function* loadTopics(action: ReturnType<typeof topicsNeeded>): SagaIterator {
  const topics: Topic[] = yield select(selectTopics);
  if (topics.length > 0 && !action.payload?.force) return;
  yield put(topicsSlice.actions.topicsLoading());
  try {
    const response: Awaited<ReturnType<typeof fetchTopics>> = yield call(fetchTopics);
    yield put(topicsSlice.actions.topicsLoaded(response.topics ?? []));
  } catch {
    yield put(topicsSlice.actions.topicsFailed());
    yield call(notifyError, 'Something Bad Happen', 'topics-failed');
  }
}

export function* topicsSaga(): SagaIterator {
  yield takeLatest(topicsNeeded.type, loadTopics);
}
