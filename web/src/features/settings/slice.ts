import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { DEFAULT_SETTINGS } from './defaults';
import { mergeSettings } from './merge';
import type { SiteSettings } from './types';

export interface SettingsState {
  values: SiteSettings;
  /** 'pending' until the remote settings arrived or failed; the app waits for it so redirects use the real rules. */
  status: 'pending' | 'ready';
}

const initialState: SettingsState = { values: DEFAULT_SETTINGS, status: 'pending' };

export const settingsSlice = createSlice({
  name: 'settings',
  initialState,
  reducers: {
    settingsReceived(state, action: PayloadAction<unknown>) {
      state.values = mergeSettings(DEFAULT_SETTINGS, action.payload);
      state.status = 'ready';
    },
    settingsUnavailable(state) {
      state.values = DEFAULT_SETTINGS;
      state.status = 'ready';
    },
  },
});

export const { settingsReceived, settingsUnavailable } = settingsSlice.actions;
