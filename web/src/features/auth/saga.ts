import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import { appStarted } from '../../app/actions';
import { navigateTo, redirectBrowser } from '../../app/navigation';
import type { IsAuthResponse, SessionResponse } from '../../shared/contracts';
import { ApiError, errorMessage, isOutage } from '../../shared/http';
import { notifyError, notifySuccess, notifyWarning } from '../../shared/notify';
import {
  clearReturnUrl,
  clearToken,
  readReturnUrl,
  readToken,
  storeReturnUrl,
  storeToken,
} from '../../shared/storage';
import { browserTimeZone } from '../../shared/timeZone';
import { selectSettings } from '../settings/selectors';
import type { SiteSettings } from '../settings/types';
import { signOutDestination } from '../settings/wording';
import { withLoadingOverlay } from '../ui/saga';
import { checkToken, logOut, requestSignInCode, signInWithLinkToken, verifySignInCode } from './api';
import { AFTER_LINK_SIGN_IN, afterVerifyDestination, googleSignInUrl, linkSignInDestination } from './rules';
import { selectIsLogin, selectLoginEmail, selectLoginStep } from './selectors';
import {
  codeRejected,
  codeRequested,
  codeRequestFailed,
  codeSent,
  codeSubmitted,
  googleSignInRequested,
  linkSignInRequested,
  signedIn,
  signedOut,
  signOutRequested,
  tokenCheckFinished,
} from './slice';

const INVALID_CODE = 'Invalid OTP! Please enter Correct OTP';

/** reader.md §4 app start: on success store the user (and a refreshed token); on failure only stop loading. */
function* checkStoredToken(): SagaIterator {
  const token: string | null = yield call(readToken);
  if (token) {
    try {
      const response: IsAuthResponse = yield call(checkToken, token);
      if (response.token) yield call(storeToken, response.token);
      yield put(signedIn(response.user));
    } catch (error) {
      yield call([console, console.debug], 'Stored token not accepted:', error);
    }
  }
  yield put(tokenCheckFinished());
}

function* sendCode(email: string): SagaIterator {
  try {
    yield call(requestSignInCode, email);
    yield put(codeSent());
  } catch (error) {
    // On the code step (a resend) the reason shows next to the field; on the e-mail step a toast says it.
    const message = errorMessage(error);
    const step: number = yield select(selectLoginStep);
    if (step !== 1) yield call(notifyError, message);
    yield put(codeRequestFailed(message));
  }
}

function* requestCode(action: PayloadAction<string>): SagaIterator {
  yield* withLoadingOverlay(sendCode, action.payload);
}

function* checkCode(otp: string): SagaIterator {
  const email: string = yield select(selectLoginEmail);
  try {
    const session: SessionResponse = yield call(verifySignInCode, email, otp, browserTimeZone());
    yield call(storeToken, session.token);
    yield put(signedIn(session.user));
    yield call(notifySuccess, 'Login Successful');
    const destination = afterVerifyDestination(session.user);
    if (destination) yield call(navigateTo, destination);
  } catch (error) {
    // A refusal is the contract's warning toast (reader.md §9) with the same words next to the code field, which is
    // cleared for the next try; an outage shows at the field only.
    const refused = error instanceof ApiError && !isOutage(error);
    const message = refused ? error.message || INVALID_CODE : errorMessage(error);
    if (refused) yield call(notifyWarning, message);
    yield put(codeRejected(message));
  }
}

function* verifyCode(action: PayloadAction<string>): SagaIterator {
  yield* withLoadingOverlay(checkCode, action.payload);
}

function* spendLinkToken(uid: string): SagaIterator {
  try {
    const session: SessionResponse = yield call(signInWithLinkToken, uid);
    yield call(storeToken, session.token);
    yield put(signedIn(session.user));
    const returnUrl: string | null = yield call(readReturnUrl);
    yield call(clearReturnUrl);
    yield call(navigateTo, linkSignInDestination(returnUrl, window.location.origin), { replace: true });
  } catch (error) {
    // A sign-in link is spent by its first use: clicked again in a browser that is signed in, it changes nothing and
    // the reader goes on where the link leads. Signed out, they are told why (used, expired, ended by a sign-out).
    const isLogin: boolean = yield select(selectIsLogin);
    if (isLogin) {
      yield call(navigateTo, AFTER_LINK_SIGN_IN, { replace: true });
    } else {
      yield call(notifyError, errorMessage(error));
      yield call(navigateTo, '/', { replace: true });
    }
  }
}

function* signInWithLink(action: PayloadAction<string>): SagaIterator {
  yield* withLoadingOverlay(spendLinkToken, action.payload);
}

function* startGoogleSignIn(action: PayloadAction<{ currentUrl: string; origin: string }>): SagaIterator {
  yield call(storeReturnUrl, action.payload.currentUrl);
  yield call(redirectBrowser, googleSignInUrl(action.payload.origin));
}

export function* signOut(): SagaIterator {
  const token: string | null = yield call(readToken);
  yield call(clearToken);
  // The browser is signed out whatever the server says: a failed call leaves only the server-side end undone.
  try {
    yield call(logOut, token);
  } catch (error) {
    yield call([console, console.debug], 'Logout call failed:', error);
  }
  yield put(signedOut());
  const settings: SiteSettings = yield select(selectSettings);
  yield call(navigateTo, signOutDestination(settings.logoutredirect));
}

export function* authSaga(): SagaIterator {
  yield all([
    takeLatest(appStarted, checkStoredToken),
    takeLatest(codeRequested, requestCode),
    takeLatest(codeSubmitted, verifyCode),
    takeLeading(linkSignInRequested, signInWithLink),
    takeLatest(googleSignInRequested, startGoogleSignIn),
    takeLatest(signOutRequested, signOut),
  ]);
}
