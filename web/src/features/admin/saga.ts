import type { SagaIterator } from 'redux-saga';
import { all, fork } from 'redux-saga/effects';
import { runSaga } from '../../app/store';
import { ALL_LISTS } from './listDefinitions';
import { topicsSaga } from './topics';

function* adminSaga(): SagaIterator {
  yield all([fork(topicsSaga), ...ALL_LISTS.map((list) => fork(list.saga))]);
}

let started = false;
/** Starts the admin sagas once, when the admin chunk first loads (its slices inject themselves on import). */
export function startAdminSagas(): void {
  if (started) return;
  started = true;
  runSaga(adminSaga);
}
