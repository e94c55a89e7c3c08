import type { User } from '../../shared/contracts';
import type { DateValue } from '../subscription/dates';

/**
 * POST /api/payment/checkout (reader.md §7): { status, subscription: { key, subscriptionId }, user }.
 * `checkoutUrl` is our addition for the embedded topology: the billing service there serves a simulated checkout
 * page, and when the answer carries its address the browser goes there instead of loading Razorpay's script.
 */
export interface CheckoutResponse {
  status: true;
  subscription?: { key?: string; subscriptionId?: string };
  user?: User;
  checkoutUrl?: string;
}

/** reader.md §3: a Payment history entry; amount in minor units. */
export interface PaymentHistoryEntry {
  start: DateValue;
  end: DateValue;
  amount: number;
  /** Our addition: a refund is a line of its own (negative amount). */
  kind?: 'payment' | 'refund';
}

export interface PaymentHistoryResponse {
  status: true;
  history: PaymentHistoryEntry[];
}
