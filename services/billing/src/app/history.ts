import { type BillingStatus, dayRangeBounds } from '@nudge/contracts';
import type { SubscriptionState } from '../domain/subscription';
import type { SubscriptionRepository } from './subscription-repository';

export interface HistoryEntry {
  start: string | null;
  end: string | null;
  amount: number;
  kind: 'payment' | 'refund';
  paymentId: string;
  subscriptionId: string;
}

/** Payments (start and end of the term they paid for) and refunds (a negative amount on the day), newest first. */
export function paymentHistory(subs: SubscriptionState[]): HistoryEntry[] {
  const entries: HistoryEntry[] = subs.flatMap((s) => [
    ...s.payments.map((p) => ({
      start: p.periodStart,
      end: p.periodEnd,
      amount: p.amount,
      kind: 'payment' as const,
      paymentId: p.paymentId,
      subscriptionId: s._id,
    })),
    ...s.refunds.map((r) => ({
      start: r.refundedAt,
      end: r.refundedAt,
      amount: -r.amount,
      kind: 'refund' as const,
      paymentId: r.paymentId,
      subscriptionId: s._id,
    })),
  ]);
  return entries.sort((a, b) => Date.parse(b.start ?? '') - Date.parse(a.start ?? ''));
}

export interface TransactionRow {
  _id: string;
  email: string;
  userId: string;
  subscriptionId: string;
  status: BillingStatus;
  startAt: string | null;
  endAt: string | null;
  createdAt: string;
  amount: number;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const netPaid = (s: SubscriptionState) =>
  s.payments.reduce((sum, p) => sum + p.amount, 0) - s.refunds.reduce((sum, r) => sum + r.amount, 0);

/** admin.md Transactions: subscriptions that were paid or are authorised (abandoned checkouts are left out). */
export function createTransactions(repo: SubscriptionRepository) {
  return {
    async page(query: {
      page: number;
      limit: number;
      email?: string | undefined;
      status?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
      order?: 'asc' | 'desc';
    }) {
      const filter: Record<string, unknown> = {
        $or: [
          { paidCount: { $gt: 0 } },
          { status: { $in: ['authenticated', 'active', 'pending', 'halted', 'paused', 'completed'] } },
        ],
      };
      if (query.email) filter.email = { $regex: escapeRegex(query.email.toLowerCase()), $options: 'i' };
      if (query.status) filter.status = query.status;
      const { gte, lt } = dayRangeBounds(query);
      if (gte || lt) filter.createdAt = { ...(gte ? { $gte: gte } : {}), ...(lt ? { $lt: lt } : {}) };
      const dir = query.order === 'asc' ? 1 : -1;
      const total = await repo.subscriptions.countDocuments(filter);
      const docs = await repo.subscriptions.find(filter, {
        sort: { createdAt: dir, _id: 1 },
        skip: (query.page - 1) * query.limit,
        limit: query.limit,
      });
      const data: TransactionRow[] = docs.map((s) => ({
        _id: s.recordId,
        email: s.email,
        userId: s.userId,
        subscriptionId: s._id,
        status: s.status,
        startAt: s.startAt,
        endAt: s.endAt,
        createdAt: s.createdAt,
        amount: netPaid(s),
      }));
      return { total, data };
    },
  };
}
