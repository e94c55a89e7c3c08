import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, takeLatest } from 'redux-saga/effects';
import type { NotificationDetailsResponse } from '../../shared/contracts';
import { errorMessage } from '../../shared/http';
import { notifyError } from '../../shared/notify';
import { withLoadingOverlay } from '../ui/saga';
import { fetchNotificationDetails, toggleNotifications } from './api';
import {
  notificationDetailsFailed,
  notificationDetailsLoaded,
  notificationDetailsRequested,
  notificationToggled,
  notificationToggleFailed,
  notificationToggleRequested,
} from './slice';

function* loadDetails(action: PayloadAction<string>): SagaIterator {
  try {
    const response: NotificationDetailsResponse = yield call(fetchNotificationDetails, action.payload);
    yield put(notificationDetailsLoaded(response.user));
  } catch (error) {
    yield put(notificationDetailsFailed(errorMessage(error)));
  }
}

function* toggle(id: string): SagaIterator {
  try {
    const response: NotificationDetailsResponse = yield call(toggleNotifications, id);
    yield put(notificationToggled(response.user));
  } catch (error) {
    // reader.md §8: a notification update failure shows the server's message.
    yield call(notifyError, errorMessage(error));
    yield put(notificationToggleFailed());
  }
}

export function* unsubscribeSaga(): SagaIterator {
  yield all([
    takeLatest(notificationDetailsRequested, loadDetails),
    takeLatest(notificationToggleRequested, (action: PayloadAction<string>) =>
      withLoadingOverlay(toggle, action.payload),
    ),
  ]);
}
