import { type DocumentStore, DuplicateKeyError, type Logger } from '@nudge/platform';
import type { PaymentProvider } from '../infra/payment-provider';

/** The refund ledger: one document per refunded payment, written before the provider is asked. */
export const REFUNDS = 'refunds';

export type RefundRecord = {
  /** The payment id: the unique key that makes a second refund of the payment impossible. */
  _id: string;
  subscriptionId: string;
  userId: string;
  /** Amount asked (paise). */
  amount: number;
  state: 'pending' | 'done' | 'failed';
  /** When the record was written (just before the provider was asked). */
  requestedAt: string;
  /** Set when done: the provider's refund. */
  refundId?: string;
  refundedAmount?: number;
  finishedAt?: string;
  error?: string;
};

export interface RefundOutcome {
  refundId: string;
  paymentId: string;
  amount: number;
}

/** Razorpay's refund `receipt` (at most 40 characters): the payment it refunds, to find it in the dashboard. */
export const refundReceipt = (paymentId: string) => `refund_${paymentId}`.slice(0, 40);

export interface Refunds {
  /**
   * Refunds the payment at most once across every billing instance on the store. The instance that inserts the
   * payment's record calls the provider; any other caller (another pod, a double click) waits for that record to be
   * finished and returns its outcome. Null when the refund failed (or is still unfinished after the wait): the
   * failure is logged for a refund by hand, and nobody asks the provider again automatically.
   */
  refundOnce(input: {
    paymentId: string;
    amount: number;
    subscriptionId: string;
    userId: string;
  }): Promise<RefundOutcome | null>;
}

export function createRefunds(deps: {
  store: DocumentStore;
  provider: PaymentProvider;
  log: Logger;
  clock: () => Date;
  /** How long a second caller waits for the first one's provider call (ms); the client's timeout is 15 s. */
  waitMs?: number;
  pollMs?: number;
}): Refunds {
  const records = deps.store.collection<RefundRecord>(REFUNDS);
  const waitMs = deps.waitMs ?? 20_000;
  const pollMs = deps.pollMs ?? 100;
  const outcome = (r: RefundRecord): RefundOutcome | null =>
    r.state === 'done' && r.refundId
      ? { refundId: r.refundId, paymentId: r._id, amount: r.refundedAmount ?? r.amount }
      : null;

  const awaitOther = async (paymentId: string): Promise<RefundOutcome | null> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const record = await records.findOne({ _id: paymentId });
      if (record && record.state !== 'pending') return outcome(record);
      if (Date.now() >= deadline) {
        deps.log.error(
          { paymentId },
          'a refund of this payment is still unfinished (a crash mid-refund?); check Razorpay and finish it by hand',
        );
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };

  return {
    async refundOnce(input) {
      try {
        await records.insertOne({
          _id: input.paymentId,
          subscriptionId: input.subscriptionId,
          userId: input.userId,
          amount: input.amount,
          state: 'pending',
          requestedAt: deps.clock().toISOString(),
        });
      } catch (err) {
        if (err instanceof DuplicateKeyError) return awaitOther(input.paymentId);
        throw err;
      }
      try {
        const done = await deps.provider.refundPayment(input.paymentId, input.amount, {
          receipt: refundReceipt(input.paymentId),
        });
        await records.updateOne(
          { _id: input.paymentId },
          {
            $set: {
              state: 'done',
              refundId: done.id,
              refundedAmount: done.amount,
              finishedAt: deps.clock().toISOString(),
            },
          },
        );
        return { refundId: done.id, paymentId: input.paymentId, amount: done.amount };
      } catch (err) {
        deps.log.error(
          { err, subscriptionId: input.subscriptionId, paymentId: input.paymentId },
          'REFUND FAILED: the subscription is cancelled; refund this payment by hand',
        );
        await records
          .updateOne(
            { _id: input.paymentId },
            {
              $set: {
                state: 'failed',
                error: err instanceof Error ? err.message : String(err),
                finishedAt: deps.clock().toISOString(),
              },
            },
          )
          .catch((e: unknown) => deps.log.error({ err: e }, 'the refund record could not be marked failed'));
        return null;
      }
    },
  };
}
