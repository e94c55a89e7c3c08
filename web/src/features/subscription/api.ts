import { apiRequest } from '../../shared/http';
import type { SubscriptionDetails } from './renewal';

/** POST /api/payment/details, /cancel and /restart (reader.md §7): { token } -> { status, details }. */
export interface SubscriptionDetailsResponse {
  status: true;
  details?: SubscriptionDetails;
}

export const fetchSubscriptionDetails = (token: string) =>
  apiRequest<SubscriptionDetailsResponse>('POST', '/api/payment/details', { body: { token } });

export const cancelSubscription = (token: string) =>
  apiRequest<SubscriptionDetailsResponse>('POST', '/api/payment/cancel', { body: { token } });

export const restartSubscription = (token: string) =>
  apiRequest<SubscriptionDetailsResponse>('POST', '/api/payment/restart', { body: { token } });
