import type { RootState } from '../../app/store';

export const selectIsBlockingOperation = (state: RootState) => state.ui.blockingOperations > 0;
