import { createSlice } from '@reduxjs/toolkit';

export interface UiState {
  /** Operations under way that cover the page with the loading overlay; a count, so overlapping ones nest. */
  blockingOperations: number;
}

const initialState: UiState = { blockingOperations: 0 };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    loadingStarted(state) {
      state.blockingOperations += 1;
    },
    loadingFinished(state) {
      state.blockingOperations = Math.max(0, state.blockingOperations - 1);
    },
  },
});

export const { loadingStarted, loadingFinished } = uiSlice.actions;
