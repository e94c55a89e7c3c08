import { type DocumentStore, DuplicateKeyError, type Logger } from '@nudge/platform';
import { type PaymentProvider, ProviderError, type ProviderRefund } from '../infra/payment-provider';

/** The refund ledger: one document per refunded payment, written before the provider is asked. */
export const REFUNDS = 'refunds';

export type RefundRecord = {
  /** The payment id: the unique key that makes a second refund of the payment impossible. */
  _id: string;
  subscriptionId: string;
  userId: string;
  /** Amount asked (paise). */
  amount: number;
  /** pending: asked, no answer yet (or none that settles it); done: refunded; failed: Razorpay refused or failed it. */
  state: 'pending' | 'done' | 'failed';
  /** When the record was written (just before the provider was asked). */
  requestedAt: string;
  /** Times the reconciliation asked the provider again (same idempotency key); it asks at most once. */
  retries?: number;
  /** The last answer that left the refund pending (a timeout, an outage). */
  lastError?: string;
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

/**
 * The X-Refund-Idempotency key of a payment's refund: one per payment, so every ask (the first, a reconciliation's
 * retry, another pod's) is the same request to Razorpay, which refunds once.
 */
export const refundIdempotencyKey = (paymentId: string) => `nudge-refund-${paymentId}`;

/** What one reconciliation run did, by payment id. */
type Owner = { subscriptionId: string; userId: string };
export interface ReconcileReport {
  refunded: (RefundOutcome & Owner)[];
  failed: (Owner & { paymentId: string; reason: string })[];
  /** Still pending: the provider was unreachable, or its refund is still being processed. */
  pending: string[];
  /** Asked again (once, same idempotency key) because the provider had no refund of ours. */
  retried: string[];
}

/** A provider answer that decides the refund will not happen (a refusal); anything else may still have refunded. */
const isRefusal = (err: unknown) =>
  err instanceof ProviderError &&
  err.status !== undefined &&
  err.status >= 400 &&
  err.status < 500 &&
  err.status !== 409;

export interface Refunds {
  /**
   * Refunds the payment at most once across every billing instance on the store. The instance that inserts the
   * payment's record calls the provider; any other caller (another pod, a double click) waits for that record to be
   * finished and returns its outcome. Null when the refund failed or is still unsettled: a refusal is recorded as
   * failed (logged for a refund by hand); no answer (a timeout, an outage, a crash) leaves the record pending for
   * reconcile().
   */
  refundOnce(input: {
    paymentId: string;
    amount: number;
    subscriptionId: string;
    userId: string;
  }): Promise<RefundOutcome | null>;
  /**
   * Settles the refunds left pending longer than `settleAfterMs` (the periodic job, once per cluster): Razorpay's
   * refunds of the payment are matched by our receipt; a processed one makes the record done, a failed one failed
   * (with the reason); when Razorpay has none, the refund is asked again once with the same idempotency key, so it
   * can never be made twice. A record still without an answer after that retry is failed for a refund by hand.
   */
  reconcile(): Promise<ReconcileReport>;
}

export function createRefunds(deps: {
  store: DocumentStore;
  provider: PaymentProvider;
  log: Logger;
  clock: () => Date;
  /** How long a second caller waits for the first one's provider call (ms); the client's timeout is 15 s. */
  waitMs?: number;
  pollMs?: number;
  /** A pending record younger than this is left to the request that is asking (ms); default 2 minutes. */
  settleAfterMs?: number;
}): Refunds {
  const records = deps.store.collection<RefundRecord>(REFUNDS);
  const waitMs = deps.waitMs ?? 20_000;
  const pollMs = deps.pollMs ?? 100;
  const settleAfterMs = deps.settleAfterMs ?? 120_000;
  const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const ask = (r: { _id: string; amount: number }) =>
    deps.provider.refundPayment(r._id, r.amount, {
      receipt: refundReceipt(r._id),
      idempotencyKey: refundIdempotencyKey(r._id),
    });
  const settleDone = async (paymentId: string, refund: ProviderRefund): Promise<RefundOutcome> => {
    await records.updateOne(
      { _id: paymentId, state: 'pending' },
      {
        $set: {
          state: 'done',
          refundId: refund.id,
          refundedAmount: refund.amount,
          finishedAt: deps.clock().toISOString(),
        },
      },
    );
    return { refundId: refund.id, paymentId, amount: refund.amount };
  };
  const owner = (r: RefundRecord): Owner => ({ subscriptionId: r.subscriptionId, userId: r.userId });
  const settleFailed = async (r: Pick<RefundRecord, '_id' | 'subscriptionId' | 'userId'>, reason: string) => {
    await records.updateOne(
      { _id: r._id, state: 'pending' },
      { $set: { state: 'failed', error: reason, finishedAt: deps.clock().toISOString() } },
    );
    return { paymentId: r._id, subscriptionId: r.subscriptionId, userId: r.userId, reason };
  };
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
        const done = await ask({ _id: input.paymentId, amount: input.amount });
        return await settleDone(input.paymentId, done);
      } catch (err) {
        if (isRefusal(err)) {
          deps.log.error(
            { err, subscriptionId: input.subscriptionId, paymentId: input.paymentId },
            'REFUND FAILED: the subscription is cancelled; refund this payment by hand',
          );
          await settleFailed({ _id: input.paymentId, ...input }, errorText(err)).catch((e: unknown) =>
            deps.log.error({ err: e }, 'the refund record could not be marked failed'),
          );
        } else {
          deps.log.warn(
            { err, subscriptionId: input.subscriptionId, paymentId: input.paymentId },
            'refund unanswered: left pending for the reconciliation',
          );
          await records
            .updateOne({ _id: input.paymentId, state: 'pending' }, { $set: { lastError: errorText(err) } })
            .catch(() => undefined);
        }
        return null;
      }
    },

    async reconcile() {
      const report: ReconcileReport = { refunded: [], failed: [], pending: [], retried: [] };
      const before = new Date(deps.clock().getTime() - settleAfterMs).toISOString();
      const due = await records.find(
        { state: 'pending', requestedAt: { $lte: before } },
        { sort: { requestedAt: 1 } },
      );
      for (const record of due) {
        const paymentId = record._id;
        try {
          const receipt = refundReceipt(paymentId);
          const ours = (await deps.provider.fetchRefunds(paymentId)).find(
            (r) => r.receipt === receipt || (!Array.isArray(r.notes) && r.notes?.refund_receipt === receipt),
          );
          if (ours?.status === 'processed') {
            report.refunded.push({ ...(await settleDone(paymentId, ours)), ...owner(record) });
          } else if (ours?.status === 'failed') {
            report.failed.push(
              await settleFailed(record, `Razorpay reports the refund ${ours.id} as failed`),
            );
          } else if (ours) {
            report.pending.push(paymentId); // Razorpay has it and is still processing it.
          } else if ((record.retries ?? 0) === 0) {
            await records.updateOne(
              { _id: paymentId, state: 'pending' },
              { $set: { retries: (record.retries ?? 0) + 1 } },
            );
            report.retried.push(paymentId);
            try {
              report.refunded.push({ ...(await settleDone(paymentId, await ask(record))), ...owner(record) });
            } catch (err) {
              if (!isRefusal(err)) throw err;
              report.failed.push(await settleFailed(record, errorText(err)));
            }
          } else {
            report.failed.push(
              await settleFailed(
                record,
                `Razorpay has no refund of this payment after a retry (${record.lastError ?? 'no answer'})`,
              ),
            );
          }
        } catch (err) {
          await records
            .updateOne({ _id: paymentId, state: 'pending' }, { $set: { lastError: errorText(err) } })
            .catch(() => undefined);
          report.pending.push(paymentId);
        }
      }
      for (const failed of report.failed)
        deps.log.error(
          failed,
          'REFUND FAILED (reconciliation): the subscription is cancelled; refund this payment by hand',
        );
      return report;
    },
  };
}
