import type { SagaIterator } from 'redux-saga';
import { all, call, delay, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import { navigateTo, redirectBrowser } from '../../app/navigation';
import type { IsAuthResponse, User } from '../../shared/contracts';
import { ApiError } from '../../shared/http';
import { readToken, storeToken } from '../../shared/storage';
import { checkToken } from '../auth/api';
import { selectUser } from '../auth/selectors';
import { signedIn, userUpdated } from '../auth/slice';
import { selectSettings } from '../settings/selectors';
import type { SiteSettings } from '../settings/types';
import { loadingFinished, loadingStarted } from '../ui/slice';
import { confirmCheckout, fetchPaymentHistory, startCheckout } from './api';
import {
  type CheckoutOutcome,
  type CheckoutTarget,
  checkoutDestination,
  checkoutTarget,
  needsRoleRecheck,
  ROLE_RECHECK_INTERVAL_MS,
  refusedCheckoutUser,
} from './checkout';
import { loadRazorpay, openRazorpayCheckout } from './razorpay';
import {
  checkoutEnded,
  checkoutFailed,
  checkoutLeaving,
  checkoutOpened,
  checkoutRequested,
  historyFailed,
  historyLoaded,
  historyRequested,
  paymentSucceeded,
} from './slice';
import type { CheckoutResponse, PaymentHistoryResponse } from './types';

const PLAN_DESCRIPTION = '12 month Premium Subscription';

/** The provider script, under the loading overlay (which goes before the provider's own opens). */
function* prepareCheckout(response: CheckoutResponse): SagaIterator {
  const target: CheckoutTarget = checkoutTarget(response);
  if (target.kind === 'invalid') throw new Error('The checkout answer cannot be opened');
  if (target.kind === 'redirect') return { target };
  yield put(loadingStarted());
  try {
    const Razorpay: Awaited<ReturnType<typeof loadRazorpay>> = yield call(loadRazorpay);
    return { target, Razorpay };
  } finally {
    yield put(loadingFinished());
  }
}

/**
 * Opens the checkout a checkout (or restart) answer describes: the simulated page of the embedded topology (the
 * browser leaves; that page returns to a result page), or Razorpay's. Returns how Razorpay's ended, or null when the
 * browser left. A paid checkout's signed result is reported to the server (failures only logged).
 */
export function* openCheckout(
  response: CheckoutResponse,
  token: string,
): SagaIterator<CheckoutOutcome | null> {
  const prepared: { target: CheckoutTarget; Razorpay?: Awaited<ReturnType<typeof loadRazorpay>> } =
    yield call(prepareCheckout, response);
  const { target, Razorpay } = prepared;
  if (target.kind === 'redirect') {
    yield put(checkoutLeaving());
    yield call(redirectBrowser, target.url);
    return null;
  }
  if (target.kind !== 'razorpay' || !Razorpay) return null;
  const user: User | null = yield select(selectUser);
  const settings: SiteSettings = yield select(selectSettings);
  yield put(checkoutOpened());
  const ended: Awaited<ReturnType<typeof openRazorpayCheckout>> = yield call(openRazorpayCheckout, Razorpay, {
    key: target.key,
    subscriptionId: target.subscriptionId,
    name: settings.sitetitle,
    description: PLAN_DESCRIPTION,
    email: user?.email ?? '',
    fullName: [user?.firstname, user?.lastname].filter(Boolean).join(' '),
    color: settings.buttoncolor,
  });
  yield put(checkoutEnded());
  if (ended.result) {
    try {
      yield call(confirmCheckout, token, ended.result);
    } catch (error) {
      yield call([console, console.debug], 'Checkout confirmation not sent:', error);
    }
  }
  return ended.outcome;
}

function* checkout(): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    if (!token) throw new ApiError('Not signed in', 401);
    yield put(loadingStarted());
    let response: CheckoutResponse;
    try {
      response = yield call(startCheckout, token);
    } finally {
      yield put(loadingFinished());
    }
    const outcome: CheckoutOutcome | null = yield call(openCheckout, response, token);
    if (outcome) yield call(navigateTo, checkoutDestination(outcome));
  } catch (error) {
    // reader.md §8: a checkout failure is logged only and the loading stops. §4: a refusal that returns the user
    // updates the user record (and sets a flag).
    yield call([console, console.error], 'Checkout failed:', error);
    const user = error instanceof ApiError ? refusedCheckoutUser(error.body) : null;
    if (user) yield put(userUpdated(user));
    yield put(checkoutFailed({ userRefreshed: Boolean(user) }));
  }
}

/**
 * After a payment (awaiting 'premium') or a refunded cancel (awaiting 'user'): POST /api/user/isauth returns a fresh
 * token when the role changed. The change may reach auth after the page has its answer, so the check repeats a few
 * times while the role is still the old one.
 */
export function* recheckRole(awaited: 'premium' | 'user' = 'premium'): SagaIterator {
  for (let attemptsDone = 0; ; attemptsDone += 1) {
    if (attemptsDone > 0) yield delay(ROLE_RECHECK_INTERVAL_MS);
    const token: string | null = yield call(readToken);
    if (!token) return;
    try {
      const response: IsAuthResponse = yield call(checkToken, token);
      if (response.token) yield call(storeToken, response.token);
      yield put(signedIn(response.user));
      if (!needsRoleRecheck(response.user.role, attemptsDone + 1, awaited)) return;
    } catch (error) {
      yield call([console, console.debug], 'Token re-check after payment failed:', error);
      return;
    }
  }
}

function* loadHistory(): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    if (!token) throw new ApiError('Not signed in', 401);
    const response: PaymentHistoryResponse = yield call(fetchPaymentHistory, token);
    yield put(historyLoaded(Array.isArray(response.history) ? response.history : []));
  } catch (error) {
    // reader.md §8: a payment history failure is logged only.
    yield call([console, console.error], 'Payment history failed:', error);
    yield put(historyFailed());
  }
}

export function* paymentsSaga(): SagaIterator {
  yield all([
    takeLeading(checkoutRequested, checkout),
    takeLatest(paymentSucceeded, () => recheckRole('premium')),
    takeLatest(historyRequested, loadHistory),
  ]);
}
