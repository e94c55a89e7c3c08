import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest } from 'redux-saga/effects';
import { ApiError } from '../../shared/http';
import { notifySuccess } from '../../shared/notify';
import { readToken } from '../../shared/storage';
import type { CheckoutOutcome } from '../payments/checkout';
import { openCheckout, recheckRole } from '../payments/saga';
import { withLoadingOverlay } from '../ui/saga';
import {
  cancelSubscription,
  fetchSubscriptionDetails,
  restartSubscription,
  type SubscriptionDetailsResponse,
} from './api';
import { CANCEL_SUCCESS, RESTART_SUCCESS, subscriptionState } from './renewal';
import {
  cancelRequested,
  changeFailed,
  changeSucceeded,
  detailsFailed,
  detailsLoaded,
  detailsRequested,
  restartRequested,
} from './slice';

const NOT_SIGNED_IN = new ApiError('Not signed in', 401);

function* loadDetails(): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    if (!token) throw NOT_SIGNED_IN;
    const response: SubscriptionDetailsResponse = yield call(fetchSubscriptionDetails, token);
    if (response.details === undefined) throw new Error('The details call answered without details');
    yield put(detailsLoaded(response.details));
  } catch (error) {
    // reader.md §8: a payment details failure is logged only.
    yield call([console, console.error], 'Subscription details failed:', error);
    yield put(detailsFailed());
  }
}

type Change = (token: string) => Promise<SubscriptionDetailsResponse>;

function* changeSubscription(input: { request: Change; success: string }): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    if (!token) throw NOT_SIGNED_IN;
    const response: SubscriptionDetailsResponse = yield call(input.request, token);
    yield put(changeSucceeded());
    if (response.checkoutUrl || response.subscription?.subscriptionId) {
      // A restart to authorise at the checkout: the simulated page returns to /upgrade; Razorpay's resolves here.
      const outcome: CheckoutOutcome | null = yield call(openCheckout, response, token);
      if (outcome === null) return;
      if (outcome === 'paid') yield call(notifySuccess, input.success);
      yield put(detailsRequested());
      return;
    }
    yield call(notifySuccess, input.success);
    // The answer carries the new details; when it does not, they are fetched again.
    if (response.details) yield put(detailsLoaded(response.details));
    else yield put(detailsRequested());
    // A refunded cancel ends premium now: the role is checked again, so the page offers Subscribe at once.
    if (response.details && subscriptionState(response.details.endAt, new Date()) === 'Inactive')
      yield call(recheckRole, 'user');
  } catch (error) {
    // reader.md §8: cancel and restart failures are logged only.
    yield call([console, console.error], 'Subscription change failed:', error);
    yield put(changeFailed());
  }
}

export function* subscriptionSaga(): SagaIterator {
  yield all([
    takeLatest(detailsRequested, loadDetails),
    takeLatest(cancelRequested, () =>
      withLoadingOverlay(changeSubscription, { request: cancelSubscription, success: CANCEL_SUCCESS }),
    ),
    takeLatest(restartRequested, () =>
      withLoadingOverlay(changeSubscription, { request: restartSubscription, success: RESTART_SUCCESS }),
    ),
  ]);
}
