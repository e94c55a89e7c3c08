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
  status: string;
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
  /** `receipt`: Razorpay's refund receipt (at most 40 characters), our reference for reconciliation. */
  refundPayment(paymentId: string, amount: number, options?: { receipt?: string }): Promise<ProviderRefund>;
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
