import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { NotificationDetails } from '../../shared/contracts';

export interface UnsubscribeState {
  status: 'loading' | 'loaded' | 'failed';
  details: NotificationDetails | null;
  error: string;
  toggling: boolean;
}

const initialState: UnsubscribeState = { status: 'loading', details: null, error: '', toggling: false };

export const unsubscribeSlice = createSlice({
  name: 'unsubscribe',
  initialState,
  reducers: {
    notificationDetailsRequested(state, _action: PayloadAction<string>) {
      state.status = 'loading';
      state.details = null;
      state.error = '';
    },
    notificationDetailsLoaded(state, action: PayloadAction<NotificationDetails>) {
      state.status = 'loaded';
      state.details = action.payload;
    },
    notificationDetailsFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    notificationToggleRequested(state, _action: PayloadAction<string>) {
      state.toggling = true;
    },
    notificationToggled(state, action: PayloadAction<NotificationDetails>) {
      state.toggling = false;
      state.details = action.payload;
    },
    notificationToggleFailed(state) {
      state.toggling = false;
    },
  },
});

export const {
  notificationDetailsRequested,
  notificationDetailsLoaded,
  notificationDetailsFailed,
  notificationToggleRequested,
  notificationToggled,
  notificationToggleFailed,
} = unsubscribeSlice.actions;
