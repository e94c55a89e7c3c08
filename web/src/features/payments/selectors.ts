import type { RootState } from '../../app/store';

export const selectCheckout = (state: RootState) => state.payments.checkout;
export const selectCheckoutFailed = (state: RootState) => state.payments.checkoutFailed;
export const selectPaymentHistory = (state: RootState) => state.payments.history;
export const selectPaymentHistoryStatus = (state: RootState) => state.payments.historyStatus;
