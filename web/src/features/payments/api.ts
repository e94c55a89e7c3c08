import { apiRequest } from '../../shared/http';
import type { RazorpayHandlerResult } from './razorpay';
import type { CheckoutResponse, PaymentHistoryResponse } from './types';

export const startCheckout = (token: string) =>
  apiRequest<CheckoutResponse>('POST', '/api/payment/checkout', { body: { token } });

export const fetchPaymentHistory = (token: string) =>
  apiRequest<PaymentHistoryResponse>('POST', '/api/payment/history', { body: { token } });

/** POST /api/payment/confirm (ours): the checkout handler's signed result, verified by billing with the key secret. */
export const confirmCheckout = (token: string, result: RazorpayHandlerResult) =>
  apiRequest<unknown>('POST', '/api/payment/confirm', { body: { token, ...result } });
