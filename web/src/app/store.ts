import { combineSlices, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { authSlice } from '../features/auth/slice';
import { checkinSlice } from '../features/checkin/slice';
import { commentsSlice } from '../features/comments/slice';
import { feedSlice } from '../features/feed/slice';
import { historySlice } from '../features/history/slice';
import { paymentsSlice } from '../features/payments/slice';
import { postSlice } from '../features/post/slice';
import { profileSlice } from '../features/profile/slice';
import { recommendationsSlice } from '../features/recommendations/slice';
import { settingsSlice } from '../features/settings/slice';
import { modalSlice } from '../features/signin-modal/slice';
import { subscriptionSlice } from '../features/subscription/slice';
import { uiSlice } from '../features/ui/slice';
import { unsubscribeSlice } from '../features/unsubscribe/slice';
import { rootSaga } from './rootSaga';

const sagaMiddleware = createSagaMiddleware({
  onError: (error) => console.error('Unhandled saga error:', error),
});

/**
 * The reader's slices, fixed at build time. Admin slices are injected by the admin chunk when it loads
 * (`rootReducer.inject`), so the reader's first load carries none of their code (DESIGN.md §8).
 */
export const rootReducer = combineSlices(
  settingsSlice,
  authSlice,
  uiSlice,
  profileSlice,
  unsubscribeSlice,
  feedSlice,
  postSlice,
  commentsSlice,
  recommendationsSlice,
  modalSlice,
  historySlice,
  subscriptionSlice,
  paymentsSlice,
  checkinSlice,
);

export const store = configureStore({
  reducer: rootReducer,
  middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
});

/** Starts a saga after the store exists (the admin chunk's sagas, when it loads). */
export const runSaga = sagaMiddleware.run;

sagaMiddleware.run(rootSaga);

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
