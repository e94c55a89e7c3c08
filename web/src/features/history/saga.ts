import type { SagaIterator } from 'redux-saga';
import { call, put, takeLatest } from 'redux-saga/effects';
import { readToken } from '../../shared/storage';
import type { HistoryEntry } from '../progress/history';
import { fetchUserHistory } from './api';
import { historyEntries } from './historyResponse';
import { historyFailed, historyLoaded, historyRequested } from './slice';

function* loadHistory(): SagaIterator {
  try {
    const token: string | null = yield call(readToken);
    const response: Awaited<ReturnType<typeof fetchUserHistory>> = yield call(fetchUserHistory, token);
    const history: HistoryEntry[] = historyEntries(response.history);
    yield put(historyLoaded(history));
  } catch (error) {
    // reader.md §8: a history failure is only logged; the page says the strip is unavailable.
    yield call([console, console.debug], 'Reading history unavailable:', error);
    yield put(historyFailed());
  }
}

export function* historySaga(): SagaIterator {
  yield takeLatest(historyRequested, loadHistory);
}
