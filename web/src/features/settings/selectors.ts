import type { RootState } from '../../app/store';

export const selectSettings = (state: RootState) => state.settings.values;
export const selectSettingsReady = (state: RootState) => state.settings.status === 'ready';
