import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PaymentHistoryEntry } from './types';

export interface PaymentsState {
  /** 'starting' while the checkout call and the provider script load; 'open' while the provider's checkout shows. */
  checkout: 'idle' | 'starting' | 'open' | 'leaving';
  /** The last checkout could not be started (reader.md §8: logged only; the purchase card says so in a line). */
  checkoutFailed: boolean;
  /** reader.md §4: a refused checkout returned the user, whose record was updated. */
  checkoutUserRefreshed: boolean;
  history: PaymentHistoryEntry[];
  historyStatus: 'idle' | 'loading' | 'loaded' | 'failed';
}

const initialState: PaymentsState = {
  checkout: 'idle',
  checkoutFailed: false,
  checkoutUserRefreshed: false,
  history: [],
  historyStatus: 'idle',
};

export const paymentsSlice = createSlice({
  name: 'payments',
  initialState,
  reducers: {
    checkoutRequested(state) {
      state.checkout = 'starting';
      state.checkoutFailed = false;
      state.checkoutUserRefreshed = false;
    },
    checkoutOpened(state) {
      state.checkout = 'open';
    },
    /** The browser is going to the checkout page (embedded topology) or a payment result page. */
    checkoutLeaving(state) {
      state.checkout = 'leaving';
    },
    checkoutEnded(state) {
      state.checkout = 'idle';
    },
    checkoutFailed(state, action: PayloadAction<{ userRefreshed: boolean }>) {
      state.checkout = 'idle';
      state.checkoutFailed = true;
      state.checkoutUserRefreshed = action.payload.userRefreshed;
    },
    historyRequested(state) {
      state.historyStatus = 'loading';
    },
    historyLoaded(state, action: PayloadAction<PaymentHistoryEntry[]>) {
      state.historyStatus = 'loaded';
      state.history = action.payload;
    },
    historyFailed(state) {
      state.historyStatus = 'failed';
      state.history = [];
    },
  },
});

export const {
  checkoutRequested,
  checkoutOpened,
  checkoutLeaving,
  checkoutEnded,
  checkoutFailed,
  historyRequested,
  historyLoaded,
  historyFailed,
} = paymentsSlice.actions;

/** The success page was shown: check the token again so the new role (premium) applies without signing in. */
export const paymentSucceeded = createAction('payments/succeeded');
