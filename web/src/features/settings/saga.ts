import type { SagaIterator } from 'redux-saga';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import { appStarted } from '../../app/actions';
import { fetchSiteSettings } from './api';
import { applySettingsToDocument } from './applyToDocument';
import { selectSettings } from './selectors';
import { settingsReceived, settingsUnavailable } from './slice';
import type { SiteSettings } from './types';

function* loadSettings(): SagaIterator {
  try {
    const response: Awaited<ReturnType<typeof fetchSiteSettings>> = yield call(fetchSiteSettings);
    yield put(settingsReceived(response.settings));
  } catch (error) {
    // reader.md §8: a settings failure is only logged; the built-in defaults apply.
    yield call([console, console.debug], 'Site settings unavailable, using the defaults:', error);
    yield put(settingsUnavailable());
  }
  const settings: SiteSettings = yield select(selectSettings);
  yield call(applySettingsToDocument, settings);
}

export function* settingsSaga(): SagaIterator {
  yield takeLatest(appStarted, loadSettings);
}
