/**
 * The payments port: what billing asks of the payment provider. Two adapters: RazorpayProvider (the `razorpay`
 * client) and the simulated Razorpay of the embedded topology. Entities keep Razorpay's field names.
 */
export interface ProviderSubscription {
  id: string;
  status: string;
  plan_id?: string;
  short_url?: string | null;
  current_start?: number | null;
  current_end?: number | null;
  start_at?: number | null;
  charge_at?: number | null;
  paid_count?: number;
  total_count?: number;
  notes?: Record<string, unknown> | unknown[];
}

export interface ProviderRefund {
  id: string;
  amount: number;
  payment_id: string;
  /** Razorpay: pending (being processed), processed, failed. */
  status: string;
  /** Ours, given when the refund was asked for (refundReceipt): how a refund is found again. */
  receipt?: string | null;
  notes?: Record<string, unknown> | unknown[];
}

export interface RefundOptions {
  /** Razorpay's refund receipt (at most 40 characters): our reference for reconciliation. */
  receipt?: string;
  /**
   * Razorpay's X-Refund-Idempotency key (10+ characters of letters, digits, - and _): a repeat of the same request
   * with the same key returns the first refund instead of making a second one.
   */
  idempotencyKey?: string;
}

export interface CreateSubscriptionInput {
  planId: string;
  totalCount: number;
  notes: Record<string, string>;
  /** Start later (Razorpay start_at): the first charge happens then; checkout only authorises the mandate. */
  startAt?: Date;
}

export interface PaymentProvider {
  /** 'razorpay' or 'simulated'. */
  readonly kind: string;
  createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription>;
  fetchSubscription(id: string): Promise<ProviderSubscription>;
  /** atCycleEnd: no further charge, the subscription ends with its current term; otherwise it ends now. */
  cancelSubscription(id: string, options: { atCycleEnd: boolean }): Promise<ProviderSubscription>;
  pauseSubscription(id: string): Promise<ProviderSubscription>;
  resumeSubscription(id: string): Promise<ProviderSubscription>;
  refundPayment(paymentId: string, amount: number, options?: RefundOptions): Promise<ProviderRefund>;
  /** Every refund of a payment (Razorpay: GET /payments/:id/refunds), to reconcile one whose answer was lost. */
  fetchRefunds(paymentId: string): Promise<ProviderRefund[]>;
}

/** The provider refused or could not be reached. `status` is the provider's HTTP status when it answered. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
