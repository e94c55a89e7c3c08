import { type CheckoutOutcome, RAZORPAY_SCRIPT_URL } from './checkout';

/** The part of Razorpay's checkout.js this app uses. */
interface RazorpayInstance {
  open(): void;
  close(): void;
  on(event: 'payment.failed', handler: (response: unknown) => void): void;
}
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let loading: Promise<RazorpayConstructor> | null = null;

/** Loads checkout.js once, only when a checkout is about to open. */
export function loadRazorpay(): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  if (!loading) {
    loading = new Promise<RazorpayConstructor>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = RAZORPAY_SCRIPT_URL;
      script.async = true;
      script.onload = () =>
        window.Razorpay ? resolve(window.Razorpay) : reject(new Error('Razorpay checkout did not load'));
      script.onerror = () => {
        script.remove();
        reject(new Error('Razorpay checkout could not be loaded'));
      };
      document.head.appendChild(script);
    }).catch((error: unknown) => {
      loading = null;
      throw error;
    });
  }
  return loading;
}

export interface RazorpayCheckout {
  key: string;
  subscriptionId: string;
  name: string;
  description: string;
  email: string;
  fullName: string;
  color: string;
}

/** What Razorpay's handler receives after a completed subscription checkout. */
export interface RazorpayHandlerResult {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/**
 * Opens the subscription checkout and resolves with how it ended, and for a paid one the handler's signed result
 * (which the app reports to POST /api/payment/confirm; the webhook stays what activates the subscription).
 */
export function openRazorpayCheckout(Razorpay: RazorpayConstructor, checkout: RazorpayCheckout) {
  return new Promise<{ outcome: CheckoutOutcome; result?: RazorpayHandlerResult }>((resolve) => {
    let settled = false;
    const finish = (outcome: CheckoutOutcome, result?: RazorpayHandlerResult) => {
      if (settled) return;
      settled = true;
      resolve(result ? { outcome, result } : { outcome });
    };
    const instance = new Razorpay({
      key: checkout.key,
      subscription_id: checkout.subscriptionId,
      name: checkout.name,
      description: checkout.description,
      prefill: { email: checkout.email, name: checkout.fullName },
      theme: { color: checkout.color },
      handler: (result: RazorpayHandlerResult) => finish('paid', result),
      modal: { ondismiss: () => finish('dismissed') },
    });
    instance.on('payment.failed', () => {
      finish('failed');
      instance.close();
    });
    instance.open();
  });
}
