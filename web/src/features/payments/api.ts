import { apiRequest } from '../../shared/http';
import type { CheckoutResponse, PaymentHistoryResponse } from './types';

export const startCheckout = (token: string) =>
  apiRequest<CheckoutResponse>('POST', '/api/payment/checkout', { body: { token } });

export const fetchPaymentHistory = (token: string) =>
  apiRequest<PaymentHistoryResponse>('POST', '/api/payment/history', { body: { token } });
