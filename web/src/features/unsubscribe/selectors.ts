import type { RootState } from '../../app/store';

export const selectUnsubscribe = (state: RootState) => state.unsubscribe;
