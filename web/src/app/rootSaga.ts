import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { authSaga } from '../features/auth/saga';
import { eventLogSaga } from '../features/eventlog/saga';
import { feedSaga } from '../features/feed/saga';
import { profileSaga } from '../features/profile/saga';
import { settingsSaga } from '../features/settings/saga';
import { unsubscribeSaga } from '../features/unsubscribe/saga';

export function* rootSaga(): SagaIterator {
  yield all([
    fork(settingsSaga),
    fork(authSaga),
    fork(profileSaga),
    fork(unsubscribeSaga),
    fork(feedSaga),
    fork(eventLogSaga),
  ]);
}
