import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeLatest } from 'redux-saga/effects';
import { navigateTo } from '../../app/navigation';
import type { MessageResponse, ProfileInfo, User, UserResponse } from '../../shared/contracts';
import { errorMessage } from '../../shared/http';
import { notifyError, notifySuccess } from '../../shared/notify';
import { readToken } from '../../shared/storage';
import { selectUser } from '../auth/selectors';
import { userUpdated, whatsAppNumberVerified } from '../auth/slice';
import { withLoadingOverlay } from '../ui/saga';
import { fetchAllTopics, updateProfile, whatsAppOtpTransaction } from './api';
import { OTP_STAGE, type OtpStage } from './otpStage';
import {
  otpCodeRequested,
  otpCodeSent,
  otpCodeSubmitted,
  otpCodeVerified,
  otpFailed,
  profileFormOpened,
  profileUpdateFinished,
  profileUpdateRequested,
  topicsFailed,
  topicsLoaded,
  topicsLoading,
} from './slice';
import type { Topic } from './types';

const SIGN_IN_AGAIN = 'Please sign in again.';

function* loadTopics(): SagaIterator {
  yield put(topicsLoading());
  try {
    const response: { topics: Topic[] } = yield call(fetchAllTopics);
    yield put(topicsLoaded(Array.isArray(response.topics) ? response.topics : []));
  } catch (error) {
    yield call([console, console.debug], 'Topics unavailable:', error);
    yield put(topicsFailed());
  }
}

/** One WhatsApp verification call for the signed-in user (reader.md §4 stages). */
function* whatsAppStage(phone: string, stage: OtpStage, otp: string | number): SagaIterator<MessageResponse> {
  const user: User | null = yield select(selectUser);
  if (!user) throw new Error(SIGN_IN_AGAIN);
  const token: string | null = yield call(readToken);
  return yield call(whatsAppOtpTransaction, { email: user.email, phone, stage, otp, token });
}

function* sendWhatsAppCode(phone: string): SagaIterator {
  try {
    const response: MessageResponse = yield call(whatsAppStage, phone, OTP_STAGE.notSent, 0);
    yield call(notifySuccess, response.message);
    yield put(otpCodeSent());
  } catch (error) {
    // reader.md §8's server message, shown at the field it is about (one message, not a toast beside it).
    yield put(otpFailed(errorMessage(error)));
  }
}

function* checkWhatsAppCode(request: { phone: string; otp: string }): SagaIterator {
  try {
    const response: MessageResponse = yield call(whatsAppStage, request.phone, OTP_STAGE.sent, request.otp);
    yield call(notifySuccess, response.message);
    yield put(otpCodeVerified());
    yield put(whatsAppNumberVerified(request.phone));
  } catch (error) {
    yield put(otpFailed(errorMessage(error)));
  }
}

/**
 * POST /api/user/update for the signed-in user with the info built from their current record; stores and returns
 * the updated user. Throws (for the caller's own message) when nobody is signed in or the server refuses.
 */
export function* updateSignedInProfile(infoFor: (user: User) => ProfileInfo): SagaIterator<User> {
  const user: User | null = yield select(selectUser);
  if (!user) throw new Error(SIGN_IN_AGAIN);
  const token: string | null = yield call(readToken);
  const response: UserResponse = yield call(updateProfile, { email: user.email, token, info: infoFor(user) });
  yield put(userUpdated(response.user));
  return response.user;
}

function* saveProfile(info: ProfileInfo): SagaIterator {
  try {
    yield call(updateSignedInProfile, () => info);
    yield call(notifySuccess, 'Settings updated successfully');
    yield call(navigateTo, '/');
  } catch (error) {
    yield call(notifyError, errorMessage(error));
  } finally {
    yield put(profileUpdateFinished());
  }
}

export function* profileSaga(): SagaIterator {
  yield all([
    takeLatest(profileFormOpened, loadTopics),
    takeLatest(otpCodeRequested, (action: PayloadAction<string>) =>
      withLoadingOverlay(sendWhatsAppCode, action.payload),
    ),
    takeLatest(otpCodeSubmitted, (action: PayloadAction<{ phone: string; otp: string }>) =>
      withLoadingOverlay(checkWhatsAppCode, action.payload),
    ),
    takeLatest(profileUpdateRequested, (action: PayloadAction<ProfileInfo>) =>
      withLoadingOverlay(saveProfile, action.payload),
    ),
  ]);
}
