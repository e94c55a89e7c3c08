import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { CHECKOUT_CURRENCY, type Currency } from './pricing';
import type { SubscriptionDetails } from './renewal';

export interface SubscriptionState {
  /** The currency the prices are shown in (the toggle); checkout is INR whatever it says. */
  currency: Currency;
  details: SubscriptionDetails | null;
  detailsStatus: 'idle' | 'loading' | 'loaded' | 'failed';
  /** A cancel or restart under way. */
  change: 'none' | 'cancelling' | 'restarting';
  /** The last cancel or restart failed (reader.md §8: logged only; the page says so in a line). */
  changeFailed: boolean;
}

const initialState: SubscriptionState = {
  currency: CHECKOUT_CURRENCY,
  details: null,
  detailsStatus: 'idle',
  change: 'none',
  changeFailed: false,
};

export const subscriptionSlice = createSlice({
  name: 'subscription',
  initialState,
  reducers: {
    currencyChanged(state, action: PayloadAction<Currency>) {
      state.currency = action.payload;
    },
    detailsRequested(state) {
      state.detailsStatus = 'loading';
      state.changeFailed = false;
    },
    detailsLoaded(state, action: PayloadAction<SubscriptionDetails | null>) {
      state.detailsStatus = 'loaded';
      state.details = action.payload;
    },
    detailsFailed(state) {
      state.detailsStatus = 'failed';
      state.details = null;
    },
    cancelRequested(state) {
      state.change = 'cancelling';
      state.changeFailed = false;
    },
    restartRequested(state) {
      state.change = 'restarting';
      state.changeFailed = false;
    },
    changeSucceeded(state) {
      state.change = 'none';
    },
    changeFailed(state) {
      state.change = 'none';
      state.changeFailed = true;
    },
  },
});

export const {
  currencyChanged,
  detailsRequested,
  detailsLoaded,
  detailsFailed,
  cancelRequested,
  restartRequested,
  changeSucceeded,
  changeFailed,
} = subscriptionSlice.actions;
