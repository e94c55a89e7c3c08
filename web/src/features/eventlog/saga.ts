import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, takeEvery } from 'redux-saga/effects';
import { readToken } from '../../shared/storage';
import { pageVisited } from './actions';
import { sendEventLog } from './api';
import { pageVisitEvent } from './pageVisitEvent';

function* logPageVisit(action: PayloadAction<{ path: string; url: string }>): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    yield call(sendEventLog, pageVisitEvent(token, action.payload.path, action.payload.url));
  } catch (error) {
    // reader.md §7: event log failures are only logged.
    yield call([console, console.debug], 'Event log not sent:', error);
  }
}

/** Every visit is its own event, so none is dropped for a newer one (takeEvery, not takeLatest). */
export function* eventLogSaga(): SagaIterator {
  yield takeEvery(pageVisited, logPageVisit);
}
