import type { RootState } from '../../app/store';

export const selectModal = (state: RootState) => state.modal;
export const selectModalShow = (state: RootState) => state.modal.show;
