import Razorpay from 'razorpay';
import {
  type CreateSubscriptionInput,
  type PaymentProvider,
  ProviderError,
  type ProviderRefund,
  type ProviderSubscription,
} from './payment-provider';

export interface RazorpayProviderOptions {
  keyId: string;
  keySecret: string;
  /** Base URL of the API, e.g. http://127.0.0.1:4010/v1 (tests); unset = https://api.razorpay.com/v1. */
  apiUrl?: string;
  timeoutMs?: number;
}

/** razorpay-node 2.9 keeps its axios instance here; the type declarations do not show it. */
type ClientInternals = {
  api: {
    rq: {
      defaults: { baseURL?: string; timeout?: number };
      post(
        url: string,
        body: unknown,
        config: { headers: Record<string, string> },
      ): Promise<{ data: unknown }>;
    };
  };
};

/**
 * The payments port on the official `razorpay` client. The client fixes its host to https://api.razorpay.com in
 * its constructor and appends /v1 itself; RAZORPAY_API_URL is applied by pointing the client's axios instance
 * (client.api.rq) at the configured host. The adapter test runs the real client against a local server, so a client
 * upgrade that moves this breaks a test, not production.
 */
export function createRazorpayProvider(options: RazorpayProviderOptions): PaymentProvider {
  const client = new Razorpay({ key_id: options.keyId, key_secret: options.keySecret });
  const internals = client as unknown as ClientInternals;
  if (options.apiUrl)
    internals.api.rq.defaults.baseURL = options.apiUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  internals.api.rq.defaults.timeout = options.timeoutMs ?? 15_000;

  const call = async <T>(what: string, run: () => Promise<unknown>): Promise<T> => {
    try {
      return (await run()) as T;
    } catch (err) {
      throw toProviderError(what, err);
    }
  };

  return {
    kind: 'razorpay',
    createSubscription: (input: CreateSubscriptionInput) =>
      call<ProviderSubscription>('create a subscription', () =>
        client.subscriptions.create({
          plan_id: input.planId,
          total_count: input.totalCount,
          quantity: 1,
          customer_notify: 1,
          notes: input.notes,
          ...(input.startAt ? { start_at: Math.floor(input.startAt.getTime() / 1000) } : {}),
        }),
      ),
    fetchSubscription: (id) =>
      call<ProviderSubscription>('fetch a subscription', () => client.subscriptions.fetch(id)),
    cancelSubscription: (id, { atCycleEnd }) =>
      call<ProviderSubscription>('cancel a subscription', () => client.subscriptions.cancel(id, atCycleEnd)),
    pauseSubscription: (id) =>
      call<ProviderSubscription>('pause a subscription', () =>
        client.subscriptions.pause(id, { pause_at: 'now' }),
      ),
    resumeSubscription: (id) =>
      call<ProviderSubscription>('resume a subscription', () =>
        client.subscriptions.resume(id, { resume_at: 'now' }),
      ),
    /**
     * Razorpay's idempotent refund: the client has no way to send the X-Refund-Idempotency header, so the request
     * goes through the client's own HTTP instance (its base URL, key and timeout) with the header added; the same
     * body and key again returns the first refund.
     */
    refundPayment: (paymentId, amount, options = {}) =>
      call<ProviderRefund>('refund a payment', async () => {
        const body = {
          amount,
          speed: 'normal',
          ...(options.receipt
            ? { receipt: options.receipt, notes: { refund_receipt: options.receipt } }
            : {}),
        };
        if (!options.idempotencyKey) return client.payments.refund(paymentId, body);
        try {
          const answer = await internals.api.rq.post(
            `/v1/payments/${encodeURIComponent(paymentId)}/refund`,
            body,
            {
              headers: { 'X-Refund-Idempotency': options.idempotencyKey },
            },
          );
          return answer.data;
        } catch (err) {
          throw clientShaped(err);
        }
      }),
    fetchRefunds: async (paymentId) => {
      const list = await call<{ items?: ProviderRefund[] }>('list the refunds of a payment', () =>
        client.payments.fetchMultipleRefund(paymentId, { count: 100 }),
      );
      return list.items ?? [];
    },
  };
}

/** An axios error as the client itself rejects (its normalizeError): `{ statusCode, error }` when Razorpay answered. */
function clientShaped(err: unknown): unknown {
  const response = (err as { response?: { status?: number; data?: { error?: unknown } } } | null)?.response;
  return response?.status ? { statusCode: response.status, error: response.data?.error } : err;
}

/** The client rejects with `{ statusCode, error: { code, description } }`, or crashes reading a missing response. */
function toProviderError(what: string, err: unknown): ProviderError {
  if (err && typeof err === 'object' && 'statusCode' in err) {
    const { statusCode, error } = err as {
      statusCode: number;
      error?: { code?: string; description?: string };
    };
    return new ProviderError(
      `Razorpay could not ${what}: ${error?.description ?? `HTTP ${statusCode}`}`,
      Number(statusCode),
      error?.code,
    );
  }
  return new ProviderError(`Razorpay could not ${what}: ${err instanceof Error ? err.message : String(err)}`);
}
