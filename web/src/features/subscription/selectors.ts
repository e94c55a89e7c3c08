import type { RootState } from '../../app/store';

export const selectCurrency = (state: RootState) => state.subscription.currency;
export const selectSubscriptionDetails = (state: RootState) => state.subscription.details;
export const selectDetailsStatus = (state: RootState) => state.subscription.detailsStatus;
export const selectSubscriptionChange = (state: RootState) => state.subscription.change;
export const selectChangeFailed = (state: RootState) => state.subscription.changeFailed;
