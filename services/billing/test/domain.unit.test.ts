import { BillingEvents } from '@nudge/contracts';
import { describe, expect, it } from 'vitest';
import {
  currentSubscription,
  mayHoldPremium,
  presentDetails,
  renewalOffMessage,
  successorOf,
} from '../src/domain/account';
import { addMonths, longDate, rupees } from '../src/domain/plan';
import {
  decideExpiry,
  decideProviderUpdate,
  decideRenewalOff,
  evolve,
  type ProviderUpdate,
  refundablePayment,
  type StoredEvent,
  type SubscriptionState,
} from '../src/domain/subscription';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2027-03-01T10:00:00.000Z';
const DAY = 24 * 3600_000;
const term = (from: Date) => addMonths(from, 12);

function fold(decided: { type: string; data: unknown }[], start: SubscriptionState | null = null, at = T0) {
  let state = start;
  let version = start?.version ?? 0;
  for (const e of decided) {
    version += 1;
    state = evolve(state, { ...e, version, occurredAt: at } as StoredEvent);
  }
  return state!;
}

const created = () =>
  fold([
    {
      type: BillingEvents.SubscriptionCreated.type,
      data: {
        subscriptionId: 'sub_1',
        recordId: 'r1',
        userId: 'u1',
        email: 'u1@example.com',
        planId: 'plan_1',
        amount: 250000,
        currency: 'INR',
        totalCount: 10,
        startAt: null,
        predecessorId: null,
      },
    },
  ]);

const update = (
  event: string,
  status: string | null,
  paidCount: number,
  at: string,
  payment?: string,
): ProviderUpdate => ({
  event,
  at,
  subscription: status
    ? {
        status: status as any,
        currentStart: paidCount ? T0 : null,
        currentEnd: paidCount ? T1 : null,
        paidCount,
      }
    : null,
  payment: payment
    ? {
        id: payment,
        amount: 250000,
        currency: 'INR',
        status: 'captured',
        createdAt: T0,
        errorCode: null,
        errorDescription: null,
      }
    : null,
});

const apply = (state: SubscriptionState, u: ProviderUpdate, now = new Date(T0)) =>
  fold(decideProviderUpdate(state, u, now, term), state);

describe('decideProviderUpdate', () => {
  it('activates on the first charge and ignores the stale snapshots that follow', () => {
    let s = created();
    s = apply(s, update('subscription.charged', 'active', 1, T0, 'pay_1'));
    expect(s).toMatchObject({ entitled: true, status: 'active', startAt: T0, endAt: T1, paidCount: 1 });
    const later = apply(
      s,
      update('subscription.authenticated', 'authenticated', 0, '2026-03-01T09:59:59.000Z'),
    );
    expect(later.status).toBe('active');
    const pendingBeforeCharge = decideProviderUpdate(
      s,
      update('subscription.pending', 'pending', 0, T0),
      new Date(T0),
      term,
    );
    expect(pendingBeforeCharge).toEqual([]);
    expect(
      decideProviderUpdate(s, update('subscription.charged', 'active', 1, T0, 'pay_1'), new Date(T0), term),
    ).toEqual([]);
  });

  it('does not activate for a charge whose term is already over', () => {
    const s = created();
    const decided = decideProviderUpdate(
      s,
      update('subscription.charged', 'active', 1, T0, 'pay_1'),
      new Date(Date.parse(T1) + DAY),
      term,
    );
    expect(decided.map((e) => e.type)).toEqual([
      BillingEvents.SubscriptionStatusChanged.type,
      BillingEvents.PaymentCaptured.type,
    ]);
  });
});

describe('the refund window', () => {
  const paid = () => apply(created(), update('subscription.charged', 'active', 1, T0, 'pay_1'));
  it('refunds up to just under 7 days after the start of the paid term, not from 7 days on', () => {
    expect(refundablePayment(paid(), new Date(Date.parse(T0) + 7 * DAY - 1))?.paymentId).toBe('pay_1');
    expect(refundablePayment(paid(), new Date(Date.parse(T0) + 7 * DAY))).toBeNull();
    expect(refundablePayment(paid(), new Date(Date.parse(T0) - 1))).toBeNull();
  });
});

describe('expiry and renewal off', () => {
  const paid = () => apply(created(), update('subscription.charged', 'active', 1, T0, 'pay_1'));
  it('expires at endAt plus the grace given, and only once', () => {
    const s = paid();
    expect(decideExpiry(s, new Date(Date.parse(T1) - 1), 0)).toEqual([]);
    expect(decideExpiry(s, new Date(T1), 0)).toHaveLength(1);
    expect(decideExpiry(s, new Date(T1), DAY)).toEqual([]);
    const ended = fold(decideExpiry(s, new Date(T1), 0), s);
    expect(decideExpiry(ended, new Date(Date.parse(T1) + 5 * DAY), 0)).toEqual([]);
  });
  it('turns renewal off once', () => {
    const off = fold(decideRenewalOff(paid()), paid());
    expect(off.cancelAtCycleEnd).toBe(true);
    expect(decideRenewalOff(off)).toEqual([]);
  });
});

describe('what /upgrade shows', () => {
  it('reports renewal through status, as the web reads it', () => {
    const s = apply(created(), update('subscription.charged', 'active', 1, T0, 'pay_1'));
    expect(presentDetails(s, null)).toMatchObject({ status: 'active', renewal: 'Active' });
    const off = fold(decideRenewalOff(s), s);
    expect(presentDetails(off, null)).toMatchObject({ status: 'cancelled', renewal: 'Disabled', endAt: T1 });
    const next = {
      ...created(),
      _id: 'sub_2',
      predecessorId: 'sub_1',
      status: 'authenticated' as const,
      createdAt: T1,
    };
    expect(successorOf([off, next], off)?._id).toBe('sub_2');
    expect(currentSubscription([next, off])?._id).toBe('sub_1');
    expect(presentDetails(off, next)).toMatchObject({
      status: 'active',
      renewal: 'Active',
      nextSubscriptionId: 'sub_2',
    });
  });
});

describe('plan arithmetic and texts', () => {
  it('adds calendar months like Razorpay cycles, clamping to the month end', () => {
    expect(addMonths(new Date('2026-03-01T10:00:00Z'), 12).toISOString()).toBe('2027-03-01T10:00:00.000Z');
    expect(addMonths(new Date('2024-02-29T00:00:00Z'), 12).toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(addMonths(new Date('2026-01-31T00:00:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });
  it('writes dates in en-GB long form in the reader’s time zone', () => {
    expect(longDate('2027-02-28T20:00:00.000Z', 'Asia/Kolkata')).toBe('1 March 2027');
    expect(longDate('2027-02-28T20:00:00.000Z', 'Not/AZone')).toBe('28 February 2027');
    expect(renewalOffMessage(T1)).toBe(
      'You will not be charged again on 1 March 2027 because subscription renewal is disabled.',
    );
    expect(rupees(250000)).toBe('₹2500');
    expect(rupees(12345)).toBe('₹123.45');
  });
});

describe('which subscription may grant premium (one live subscription per reader)', () => {
  const paid = () => apply(created(), update('subscription.charged', 'active', 1, T0, 'pay_1'));
  const other = (fields: Partial<SubscriptionState> = {}): SubscriptionState => ({
    ...created(),
    _id: 'sub_2',
    ...fields,
  });

  it('the first, the holder itself, and a restart taking over from the holder may', () => {
    expect(mayHoldPremium(other(), null, null)).toBe(true);
    expect(mayHoldPremium(paid(), 'sub_1', null)).toBe(true);
    expect(mayHoldPremium(other({ predecessorId: 'sub_1' }), 'sub_1', paid())).toBe(true);
  });

  it('another one may not while the holder grants premium, or is being activated; once it has ended, it may', () => {
    expect(mayHoldPremium(other(), 'sub_1', paid())).toBe(false);
    expect(mayHoldPremium(other(), 'sub_1', created())).toBe(false);
    const ended = fold([decideExpiry(paid(), new Date(T1), 0)[0]!], paid(), T1);
    expect(ended.entitled).toBe(false);
    expect(mayHoldPremium(other(), 'sub_1', ended)).toBe(true);
  });
});
