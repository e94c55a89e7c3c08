import { configureStore } from '@reduxjs/toolkit';
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

export const store = configureStore({
  reducer: {
    settings: settingsSlice.reducer,
    auth: authSlice.reducer,
    ui: uiSlice.reducer,
    profile: profileSlice.reducer,
    unsubscribe: unsubscribeSlice.reducer,
    feed: feedSlice.reducer,
    post: postSlice.reducer,
    comments: commentsSlice.reducer,
    recommendations: recommendationsSlice.reducer,
    modal: modalSlice.reducer,
    history: historySlice.reducer,
    subscription: subscriptionSlice.reducer,
    payments: paymentsSlice.reducer,
    checkin: checkinSlice.reducer,
  },
  middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
});

sagaMiddleware.run(rootSaga);

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
