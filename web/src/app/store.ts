import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { authSlice } from '../features/auth/slice';
import { feedSlice } from '../features/feed/slice';
import { profileSlice } from '../features/profile/slice';
import { settingsSlice } from '../features/settings/slice';
import { uiSlice } from '../features/ui/slice';
import { unsubscribeSlice } from '../features/unsubscribe/slice';
import { rootSaga } from './rootSaga';

const sagaMiddleware = createSagaMiddleware({
  onError: (error) => console.error('Unhandled saga error:', error),
});

export const store = configureStore({
  reducer: {
    settings: settingsSlice.reducer,
    auth: authSlice.reducer,
    ui: uiSlice.reducer,
    profile: profileSlice.reducer,
    unsubscribe: unsubscribeSlice.reducer,
    feed: feedSlice.reducer,
  },
  middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
});

sagaMiddleware.run(rootSaga);

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
