import type { RootState } from '../../app/store';

export const selectHistory = (state: RootState) => state.history.history;
export const selectHistoryStatus = (state: RootState) => state.history.status;
