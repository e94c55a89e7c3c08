import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '../auth/slice';
import type { HistoryEntry } from '../progress/history';

export interface HistoryState {
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  history: HistoryEntry[];
}

const initialState: HistoryState = { status: 'idle', history: [] };

export const historySlice = createSlice({
  name: 'history',
  initialState,
  reducers: {
    /** The home feed opened for a signed-in reader: (re)load the reading history. */
    historyRequested(state) {
      // Keep what is shown while it refreshes (returning from a post), so the strip does not flicker.
      if (state.status !== 'loaded') state.status = 'loading';
    },
    historyLoaded(state, action: PayloadAction<HistoryEntry[]>) {
      state.status = 'loaded';
      state.history = action.payload;
    },
    historyFailed(state) {
      state.status = 'failed';
      state.history = [];
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const { historyRequested, historyLoaded, historyFailed } = historySlice.actions;
