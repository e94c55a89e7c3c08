import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CheckinOutcome, CheckinPhase, CheckinQuery } from './checkinRules';

export interface CheckinState {
  phase: CheckinPhase;
  /** Whether the check-in page is showing: the redirect to the feed happens only while it is. */
  pageOpen: boolean;
  /** Why a link was refused (the server's words for a 4xx: expired, not found), under the spec's error text. */
  reason: string;
}

const initialState: CheckinState = { phase: 'loading', pageOpen: false, reason: '' };

export const checkinSlice = createSlice({
  name: 'checkin',
  initialState,
  reducers: {
    checkinPageOpened(state) {
      state.pageOpen = true;
      state.phase = 'loading';
      state.reason = '';
    },
    checkinPageLeft(state) {
      state.pageOpen = false;
    },
    checkinRequested(state, _action: PayloadAction<CheckinQuery>) {
      state.phase = 'loading';
    },
    checkinAnswered(state, action: PayloadAction<CheckinOutcome>) {
      state.phase = action.payload;
    },
    checkinFailed(state, action: PayloadAction<string | undefined>) {
      state.phase = 'error';
      state.reason = action.payload ?? '';
    },
  },
});

export const { checkinPageOpened, checkinPageLeft, checkinRequested, checkinAnswered, checkinFailed } =
  checkinSlice.actions;
