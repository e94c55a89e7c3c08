import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, delay, put, select, takeLatest } from 'redux-saga/effects';
import { navigateTo } from '../../app/navigation';
import { ApiError } from '../../shared/http';
import { storeToken } from '../../shared/storage';
import { signedIn } from '../auth/slice';
import { answerCheckin } from './api';
import {
  CHECKIN_DESTINATION,
  CHECKIN_REDIRECT_MS,
  type CheckinQuery,
  type CheckinResult,
  checkinResult,
} from './checkinRules';
import { selectCheckinPageOpen } from './selectors';
import { checkinAnswered, checkinFailed, checkinRequested } from './slice';

/** reader.md §4: answer, sign in with the returned user and token, then go to the feed after 5 seconds. */
function* answer(action: PayloadAction<CheckinQuery>): SagaIterator {
  let result: CheckinResult;
  let reason = '';
  try {
    const body: unknown = yield call(answerCheckin, action.payload);
    result = checkinResult(body);
  } catch (error) {
    yield call([console, console.error], 'Check-in failed:', error);
    // A refused link (4xx: expired, unknown) says why; an outage keeps only the spec's 'try again later'.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) reason = error.message;
    result = { kind: 'error' };
  }
  if (result.kind === 'error') {
    yield put(checkinFailed(reason));
    return;
  }
  yield call(storeToken, result.token);
  yield put(signedIn(result.user));
  yield put(checkinAnswered(result.kind));
  yield delay(CHECKIN_REDIRECT_MS);
  // 'Go to Feed' (or any other way off the page) already left: no redirect from elsewhere.
  const stillOnPage: boolean = yield select(selectCheckinPageOpen);
  if (stillOnPage) yield call(navigateTo, CHECKIN_DESTINATION, { replace: true });
}

export function* checkinSaga(): SagaIterator {
  yield takeLatest(checkinRequested, answer);
}
