import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { authSaga } from '../features/auth/saga';
import { checkinSaga } from '../features/checkin/saga';
import { commentsSaga } from '../features/comments/saga';
import { eventLogSaga } from '../features/eventlog/saga';
import { feedSaga } from '../features/feed/saga';
import { historySaga } from '../features/history/saga';
import { paymentsSaga } from '../features/payments/saga';
import { postSaga } from '../features/post/saga';
import { profileSaga } from '../features/profile/saga';
import { recommendationsSaga } from '../features/recommendations/saga';
import { settingsSaga } from '../features/settings/saga';
import { signInModalSaga } from '../features/signin-modal/saga';
import { subscriptionSaga } from '../features/subscription/saga';
import { unsubscribeSaga } from '../features/unsubscribe/saga';

export function* rootSaga(): SagaIterator {
  yield all([
    fork(settingsSaga),
    fork(authSaga),
    fork(profileSaga),
    fork(unsubscribeSaga),
    fork(feedSaga),
    fork(postSaga),
    fork(commentsSaga),
    fork(recommendationsSaga),
    fork(signInModalSaga),
    fork(historySaga),
    fork(subscriptionSaga),
    fork(paymentsSaga),
    fork(checkinSaga),
    fork(eventLogSaga),
  ]);
}
