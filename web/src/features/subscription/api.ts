import { apiRequest } from '../../shared/http';
import type { SubscriptionDetails } from './renewal';

/** POST /api/payment/details, /cancel and /restart (reader.md §7): { token } -> { status, details }. */
export interface SubscriptionDetailsResponse {
  status: true;
  /** null: the reader has no subscription (premium given by an admin, say). */
  details?: SubscriptionDetails | null;
  message?: string;
  /**
   * Restart only: Razorpay cannot undo a cancellation, so a restart is a new subscription from the current end date,
   * which the reader authorises at a checkout (services/billing/README.md); these describe it as checkout does.
   */
  subscription?: { key?: string; subscriptionId?: string };
  checkoutUrl?: string;
}

export const fetchSubscriptionDetails = (token: string) =>
  apiRequest<SubscriptionDetailsResponse>('POST', '/api/payment/details', { body: { token } });

export const cancelSubscription = (token: string) =>
  apiRequest<SubscriptionDetailsResponse>('POST', '/api/payment/cancel', { body: { token } });

export const restartSubscription = (token: string) =>
  apiRequest<SubscriptionDetailsResponse>('POST', '/api/payment/restart', { body: { token } });
