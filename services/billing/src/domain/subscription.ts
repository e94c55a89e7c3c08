import { BillingEvents, type BillingStatus, eventData } from '@nudge/contracts';
import type { DecidedEvent, Decider } from '@nudge/platform';
import { REFUND_WINDOW_MS } from './plan';

export type Status = BillingStatus;

export interface PaymentRecord {
  paymentId: string;
  amount: number;
  currency: string;
  periodStart: string;
  periodEnd: string;
  paidAt: string;
}

export interface RefundRecord {
  refundId: string;
  paymentId: string;
  amount: number;
  refundedAt: string;
}

/** The subscription aggregate's state (stream `subscription-<provider id>`); also the read model's document. */
export interface SubscriptionState {
  /** The provider's subscription id (Razorpay `sub_...`). */
  _id: string;
  recordId: string;
  userId: string;
  email: string;
  planId: string;
  amount: number;
  currency: string;
  totalCount: number;
  status: Status;
  /** When the status was last set (provider time for webhook snapshots); older snapshots are ignored. */
  statusAt: string;
  /** The provider's paid_count of the last snapshot applied (a later charge outranks an earlier timestamp). */
  snapshotPaidCount: number;
  /** The current paid term: premium runs from startAt to endAt while `entitled`. */
  startAt: string | null;
  endAt: string | null;
  /** A restart's subscription starts later (Razorpay start_at). */
  scheduledStartAt: string | null;
  /** Renewal is off: no further charge (cancel at cycle end, or the provider completed or cancelled it). */
  cancelAtCycleEnd: boolean;
  /** This subscription currently grants premium (between SubscriptionActivated and Expired / an immediate Cancel). */
  entitled: boolean;
  paidCount: number;
  payments: PaymentRecord[];
  refunds: RefundRecord[];
  failedPaymentIds: string[];
  confirmedPaymentIds: string[];
  predecessorId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface StoredEvent {
  type: string;
  data: unknown;
  version: number;
  occurredAt: string;
}

export const subscriptionStream = (subscriptionId: string) => `subscription-${subscriptionId}`;
export const STREAM_PREFIX = 'subscription-';

const E = BillingEvents;

/** Folds one event into the state. Pure: times come from the events. */
export function evolve(state: SubscriptionState | null, event: StoredEvent): SubscriptionState | null {
  const { type, version, occurredAt } = event;
  if (type === E.SubscriptionCreated.type) {
    const d = eventData(BillingEvents.SubscriptionCreated, event);
    return {
      _id: d.subscriptionId,
      recordId: d.recordId,
      userId: d.userId,
      email: d.email,
      planId: d.planId,
      amount: d.amount,
      currency: d.currency,
      totalCount: d.totalCount,
      status: 'created',
      statusAt: occurredAt,
      snapshotPaidCount: 0,
      startAt: null,
      endAt: null,
      scheduledStartAt: d.startAt,
      cancelAtCycleEnd: false,
      entitled: false,
      paidCount: 0,
      payments: [],
      refunds: [],
      failedPaymentIds: [],
      confirmedPaymentIds: [],
      predecessorId: d.predecessorId,
      createdAt: occurredAt,
      updatedAt: occurredAt,
      version,
    };
  }
  if (!state) return null;
  const next: SubscriptionState = { ...state, version, updatedAt: occurredAt };
  switch (type) {
    case E.SubscriptionStatusChanged.type: {
      const d = eventData(BillingEvents.SubscriptionStatusChanged, event);
      next.status = d.status;
      next.statusAt = d.at;
      next.snapshotPaidCount = Math.max(state.snapshotPaidCount, d.paidCount);
      if (d.status === 'completed' || d.status === 'cancelled') next.cancelAtCycleEnd = true;
      break;
    }
    case E.PaymentCaptured.type: {
      const d = eventData(BillingEvents.PaymentCaptured, event);
      next.payments = [
        ...state.payments,
        {
          paymentId: d.paymentId,
          amount: d.amount,
          currency: d.currency,
          periodStart: d.periodStart,
          periodEnd: d.periodEnd,
          paidAt: d.paidAt,
        },
      ];
      next.paidCount = Math.max(state.paidCount, d.paidCount, next.payments.length);
      break;
    }
    case E.SubscriptionActivated.type: {
      const d = eventData(BillingEvents.SubscriptionActivated, event);
      next.entitled = true;
      next.startAt = d.startAt;
      next.endAt = d.endAt;
      break;
    }
    case E.SubscriptionRenewed.type:
      next.endAt = eventData(BillingEvents.SubscriptionRenewed, event).endAt;
      break;
    case E.SubscriptionCancelled.type: {
      const d = eventData(BillingEvents.SubscriptionCancelled, event);
      next.cancelAtCycleEnd = true;
      if (d.immediate) {
        next.entitled = false;
        next.status = 'cancelled';
        next.statusAt = occurredAt;
        next.endAt = d.endAt;
      }
      break;
    }
    case E.SubscriptionExpired.type:
      next.entitled = false;
      if (['active', 'authenticated', 'pending', 'halted', 'paused'].includes(state.status)) {
        next.status = 'expired';
        next.statusAt = occurredAt;
      }
      break;
    case E.PaymentRefunded.type: {
      const d = eventData(BillingEvents.PaymentRefunded, event);
      next.refunds = [
        ...state.refunds,
        { refundId: d.refundId, paymentId: d.paymentId, amount: d.amount, refundedAt: d.refundedAt },
      ];
      break;
    }
    case E.PaymentFailed.type:
      next.failedPaymentIds = [
        ...state.failedPaymentIds,
        eventData(BillingEvents.PaymentFailed, event).paymentId,
      ];
      break;
    case E.CheckoutConfirmed.type:
      next.confirmedPaymentIds = [
        ...state.confirmedPaymentIds,
        eventData(BillingEvents.CheckoutConfirmed, event).paymentId,
      ];
      break;
    default:
      return next;
  }
  return next;
}

export const foldSubscription = (events: StoredEvent[]): SubscriptionState | null =>
  events.reduce<SubscriptionState | null>((state, event) => evolve(state, event), null);

/** A decision on a subscription as its stream folds (null: none recorded yet), e.g. `(s) => decideExpiry(s, ...)`. */
export type SubscriptionDecision = (
  state: SubscriptionState | null,
) => readonly DecidedEvent[] | Promise<readonly DecidedEvent[]>;

/** A subscription's rules: its state folds from its stream; a command is one of the decide functions below. */
export const subscriptionDecider: Decider<SubscriptionState | null, SubscriptionDecision> = {
  initialState: null,
  evolve,
  decide: (decision, state) => decision(state),
};

// ── decisions ─────────────────────────────────────────────────────────────────────────────────────

export interface NewSubscription {
  subscriptionId: string;
  recordId: string;
  userId: string;
  email: string;
  planId: string;
  amount: number;
  currency: string;
  totalCount: number;
  startAt: string | null;
  predecessorId: string | null;
}

export const decideCreate = (input: NewSubscription): DecidedEvent[] => [
  { type: E.SubscriptionCreated.type, data: { ...input } },
];

/** What a webhook says, already parsed and verified: the provider's snapshot of the subscription and payment. */
export interface ProviderUpdate {
  event: string;
  /** The webhook's created_at, as ISO. */
  at: string;
  subscription: {
    status: Status;
    currentStart: string | null;
    currentEnd: string | null;
    paidCount: number;
  } | null;
  payment: {
    id: string;
    amount: number;
    currency: string;
    status: string;
    createdAt: string;
    errorCode: string | null;
    errorDescription: string | null;
  } | null;
}

const ms = (iso: string | null) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);
const later = (a: string | null, b: string | null) => (ms(a) >= ms(b) ? a : b);

/** Whether a snapshot is newer than what the state holds: a higher paid_count wins, then the later timestamp. */
export function isFresh(state: SubscriptionState, paidCount: number, at: string): boolean {
  if (paidCount !== state.snapshotPaidCount) return paidCount > state.snapshotPaidCount;
  return ms(at) >= ms(state.statusAt);
}

/**
 * A verified webhook's effect. Out-of-order and repeated deliveries are safe: a snapshot older than the state's is
 * ignored, a payment id counts once, and premium is granted or ended only by the facts (charges, term end).
 */
export function decideProviderUpdate(
  state: SubscriptionState,
  update: ProviderUpdate,
  now: Date,
  addTerm: (from: Date) => Date,
): DecidedEvent[] {
  const events: DecidedEvent[] = [];
  const { payment, subscription: snapshot } = update;

  if (update.event === 'payment.failed') {
    if (payment && !state.failedPaymentIds.includes(payment.id)) {
      events.push({
        type: E.PaymentFailed.type,
        data: {
          subscriptionId: state._id,
          paymentId: payment.id,
          amount: payment.amount,
          errorCode: payment.errorCode,
          errorDescription: payment.errorDescription,
          at: update.at,
        },
      });
    }
    return events;
  }

  let status = state.status;
  const fresh = snapshot ? isFresh(state, snapshot.paidCount, update.at) : false;
  if (
    snapshot &&
    fresh &&
    (snapshot.status !== state.status || snapshot.paidCount > state.snapshotPaidCount)
  ) {
    events.push({
      type: E.SubscriptionStatusChanged.type,
      data: {
        subscriptionId: state._id,
        status: snapshot.status,
        at: update.at,
        paidCount: snapshot.paidCount,
        source: 'webhook',
        providerEvent: update.event,
      },
    });
    status = snapshot.status;
  }

  let entitled = state.entitled;
  let endAt = state.endAt;
  const charged =
    update.event === 'subscription.charged' &&
    payment &&
    (payment.status === 'captured' || payment.status === 'authorized') &&
    !state.payments.some((p) => p.paymentId === payment.id);
  if (charged && payment) {
    const periodStart = snapshot?.currentStart ?? payment.createdAt;
    const periodEnd = snapshot?.currentEnd ?? addTerm(new Date(periodStart)).toISOString();
    events.push({
      type: E.PaymentCaptured.type,
      data: {
        subscriptionId: state._id,
        userId: state.userId,
        paymentId: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        periodStart,
        periodEnd,
        paidAt: payment.createdAt,
        paidCount: Math.max(snapshot?.paidCount ?? 0, state.paidCount + 1),
      },
    });
    const newEnd = later(endAt, periodEnd) as string;
    if (!entitled && ms(newEnd) > now.getTime()) {
      events.push({
        type: E.SubscriptionActivated.type,
        data: {
          userId: state.userId,
          email: state.email,
          subscriptionId: state._id,
          startAt: periodStart,
          endAt: newEnd,
        },
      });
      entitled = true;
    } else if (entitled && ms(newEnd) > ms(endAt)) {
      events.push({
        type: E.SubscriptionRenewed.type,
        data: { userId: state.userId, subscriptionId: state._id, endAt: newEnd },
      });
    }
    endAt = newEnd;
  }

  // Cancelled elsewhere (the dashboard) while the paid term runs: renewal is off, premium lasts to endAt. A term
  // that is over ends through decideExpiry, which the receiver runs after every webhook (same grace rules).
  if (
    fresh &&
    entitled &&
    endAt &&
    status === 'cancelled' &&
    !state.cancelAtCycleEnd &&
    ms(endAt) > now.getTime()
  ) {
    events.push({
      type: E.SubscriptionCancelled.type,
      data: { userId: state.userId, subscriptionId: state._id, immediate: false, refunded: false, endAt },
    });
  }
  return events;
}

/** The payment a cancel now would refund: the latest paid term, if it started less than 7 days ago and is not refunded. */
export function refundablePayment(state: SubscriptionState, now: Date): PaymentRecord | null {
  if (!state.entitled) return null;
  const latest = [...state.payments].sort((a, b) => ms(b.periodStart) - ms(a.periodStart))[0];
  if (!latest || state.refunds.some((r) => r.paymentId === latest.paymentId)) return null;
  const started = ms(latest.periodStart);
  return now.getTime() >= started && now.getTime() - started < REFUND_WINDOW_MS ? latest : null;
}

/**
 * Cancelled at once within the refund window: premium ends now. A refund not yet recorded is recorded even when
 * another instance's concurrent cancel already ended the subscription (the money went back either way).
 */
export function decideImmediateCancel(
  state: SubscriptionState,
  now: Date,
  refund: { refundId: string; paymentId: string; amount: number } | null,
): DecidedEvent[] {
  const at = now.toISOString();
  const recorded = refund !== null && state.refunds.some((r) => r.paymentId === refund.paymentId);
  const refunded: DecidedEvent[] =
    refund && !recorded
      ? [
          {
            type: E.PaymentRefunded.type,
            data: { subscriptionId: state._id, userId: state.userId, ...refund, refundedAt: at },
          },
        ]
      : [];
  if (!state.entitled) return refunded;
  return [
    ...refunded,
    {
      type: E.SubscriptionCancelled.type,
      data: {
        userId: state.userId,
        subscriptionId: state._id,
        immediate: true,
        refunded: refund !== null,
        endAt: at,
      },
    },
  ];
}

/** Renewal off: no further charge; premium lasts to endAt. */
export function decideRenewalOff(state: SubscriptionState): DecidedEvent[] {
  if (!state.entitled || state.cancelAtCycleEnd || !state.endAt) return [];
  return [
    {
      type: E.SubscriptionCancelled.type,
      data: {
        userId: state.userId,
        subscriptionId: state._id,
        immediate: false,
        refunded: false,
        endAt: state.endAt,
      },
    },
  ];
}

/** A status we set through the provider's API (a restart's unused subscription cancelled, a paused one resumed). */
export function decideLocalStatus(state: SubscriptionState, status: Status, now: Date): DecidedEvent[] {
  if (state.status === status) return [];
  return [
    {
      type: E.SubscriptionStatusChanged.type,
      data: {
        subscriptionId: state._id,
        status,
        at: now.toISOString(),
        paidCount: state.snapshotPaidCount,
        source: 'api',
        providerEvent: null,
      },
    },
  ];
}

/** Premium ends at endAt (plus `graceMs` when a renewal is still expected) if no charge extended it. */
export function decideExpiry(state: SubscriptionState, now: Date, graceMs: number): DecidedEvent[] {
  if (!state.entitled || !state.endAt) return [];
  if (now.getTime() < ms(state.endAt) + graceMs) return [];
  return [
    {
      type: E.SubscriptionExpired.type,
      data: { userId: state.userId, subscriptionId: state._id, endAt: state.endAt },
    },
  ];
}

/** Whether the provider will try to charge this subscription again at the end of its term. */
export const expectsRenewal = (state: SubscriptionState): boolean =>
  !state.cancelAtCycleEnd && (state.status === 'active' || state.status === 'pending');

export function decideCheckoutConfirmed(
  state: SubscriptionState,
  paymentId: string,
  now: Date,
): DecidedEvent[] {
  if (state.confirmedPaymentIds.includes(paymentId)) return [];
  return [
    {
      type: E.CheckoutConfirmed.type,
      data: { subscriptionId: state._id, paymentId, at: now.toISOString() },
    },
  ];
}
