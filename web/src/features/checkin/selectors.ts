import type { RootState } from '../../app/store';

export const selectCheckinPhase = (state: RootState) => state.checkin.phase;
export const selectCheckinPageOpen = (state: RootState) => state.checkin.pageOpen;
