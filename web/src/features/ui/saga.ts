import type { SagaIterator } from 'redux-saga';
import { call, put } from 'redux-saga/effects';
import { loadingFinished, loadingStarted } from './slice';

/** Runs a saga under the global loading overlay; the overlay goes away however the saga ends (even cancelled). */
export function* withLoadingOverlay<T>(task: (input: T) => SagaIterator, input: T): SagaIterator {
  yield put(loadingStarted());
  try {
    yield call(task, input);
  } finally {
    yield put(loadingFinished());
  }
}
