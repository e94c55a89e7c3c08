import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest } from 'redux-saga/effects';
import type { SessionResponse, User } from '../../shared/contracts';
import { ApiError, errorMessage, isOutage } from '../../shared/http';
import { notifyError, notifySuccess, notifyWarning } from '../../shared/notify';
import { storeToken } from '../../shared/storage';
import { browserTimeZone } from '../../shared/timeZone';
import { requestSignInCode, verifySignInCode } from '../auth/api';
import { signedIn } from '../auth/slice';
import { updateSignedInProfile } from '../profile/saga';
import { modalProfileInfo } from './modalSteps';
import { selectModal } from './selectors';
import {
  type ModalState,
  modalCodeRejected,
  modalCodeRequested,
  modalCodeSent,
  modalCodeSubmitted,
  modalProfileSaved,
  modalProfileSubmitted,
  modalRequestFailed,
  modalVerified,
  signInModalFinished,
} from './slice';

const INVALID_CODE = 'Invalid OTP! Please enter Correct OTP';

function* sendCode(action: PayloadAction<string>): SagaIterator {
  try {
    yield call(requestSignInCode, action.payload);
    yield put(modalCodeSent());
  } catch (error) {
    // On the code step (a resend) the reason shows next to the field; on the e-mail step a toast says it.
    const message = errorMessage(error);
    const modal: ModalState = yield select(selectModal);
    if (modal.step !== 1) yield call(notifyError, message);
    yield put(modalCodeRejected({ message, clear: false }));
  }
}

/** As the login's code step, but the reader stays on the page: verified users are done, others see step 2. */
function* checkCode(action: PayloadAction<string>): SagaIterator {
  const modal: ModalState = yield select(selectModal);
  try {
    const session: SessionResponse = yield call(
      verifySignInCode,
      modal.email,
      action.payload,
      browserTimeZone(),
    );
    yield call(storeToken, session.token);
    yield put(signedIn(session.user));
    yield call(notifySuccess, 'Login Successful');
    yield put(modalVerified(session.user.verified));
    yield put(signInModalFinished(modal.reason));
  } catch (error) {
    // A refusal is the contract's warning toast (reader.md §9) with the same words next to the code field, which is
    // cleared for the next try; an outage shows at the field only.
    const refused = error instanceof ApiError && !isOutage(error);
    const message = refused ? error.message || INVALID_CODE : errorMessage(error);
    if (refused) yield call(notifyWarning, message);
    yield put(modalCodeRejected({ message, clear: true }));
  }
}

function* saveProfile(
  action: PayloadAction<{ time: string; enableEmail: boolean; topics: string[]; ageConfirmed: boolean }>,
): SagaIterator {
  try {
    yield call(updateSignedInProfile, (user: User) =>
      modalProfileInfo(user, action.payload, browserTimeZone()),
    );
    yield call(notifySuccess, 'Settings updated successfully');
    yield put(modalProfileSaved());
  } catch (error) {
    yield call(notifyError, errorMessage(error));
    yield put(modalRequestFailed());
  }
}

export function* signInModalSaga(): SagaIterator {
  yield all([
    takeLatest(modalCodeRequested, sendCode),
    takeLatest(modalCodeSubmitted, checkCode),
    takeLatest(modalProfileSubmitted, saveProfile),
  ]);
}
