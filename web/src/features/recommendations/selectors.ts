import type { RootState } from '../../app/store';

export const selectRecommendations = (state: RootState) => state.recommendations;
