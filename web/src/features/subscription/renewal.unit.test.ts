import { describe, expect, it } from 'vitest';
import { formatLongDate, toDate } from './dates';
import {
  cancelConsequence,
  inRefundWindow,
  managementActions,
  renewalState,
  renewalText,
  subscriptionState,
} from './renewal';

const NOW = new Date('2026-01-10T12:00:00Z');
const END = '2026-03-05T12:00:00Z';
const PAST = '2025-12-01T12:00:00Z';

describe('dates', () => {
  it('use the en-GB long form', () => {
    expect(formatLongDate('2026-03-05T12:00:00Z', 'UTC')).toBe('5 March 2026');
    expect(formatLongDate('2025-12-31T23:30:00Z', 'Asia/Kolkata')).toBe('1 January 2026');
  });

  it('accept epoch seconds and milliseconds, and digits in a string', () => {
    const ms = Date.UTC(2026, 2, 5, 12);
    expect(toDate(ms)?.toISOString()).toBe('2026-03-05T12:00:00.000Z');
    expect(toDate(ms / 1000)?.toISOString()).toBe('2026-03-05T12:00:00.000Z');
    expect(toDate(String(ms / 1000))?.toISOString()).toBe('2026-03-05T12:00:00.000Z');
  });

  it('give nothing for values that are not dates', () => {
    expect(toDate(null)).toBeNull();
    expect(toDate(undefined)).toBeNull();
    expect(toDate('')).toBeNull();
    expect(toDate('soon')).toBeNull();
    expect(toDate(Number.NaN)).toBeNull();
    expect(formatLongDate('soon')).toBe('');
  });
});

describe('renewal state', () => {
  it('is Active for active or completed, Disabled otherwise', () => {
    expect(renewalState('active')).toBe('Active');
    expect(renewalState('completed')).toBe('Active');
    expect(renewalState('cancelled')).toBe('Disabled');
    expect(renewalState('halted')).toBe('Disabled');
    expect(renewalState('')).toBe('Disabled');
  });
});

describe('subscription state', () => {
  it('is Active while now is before endAt', () => {
    expect(subscriptionState(END, NOW)).toBe('Active');
    expect(subscriptionState(PAST, NOW)).toBe('Inactive');
    expect(subscriptionState(NOW.toISOString(), NOW)).toBe('Inactive');
    expect(subscriptionState(null, NOW)).toBe('Inactive');
  });
});

describe('renewal text', () => {
  it('says when it renews while renewal is on', () => {
    expect(renewalText({ endAt: END, status: 'active' }, NOW, 'UTC')).toBe(
      'Your subscription will renew on 5 March 2026',
    );
  });

  it('says there is no further charge while renewal is off', () => {
    expect(renewalText({ endAt: END, status: 'cancelled' }, NOW, 'UTC')).toBe(
      'You will not be charged again on 5 March 2026 because subscription renewal is disabled.',
    );
  });

  it('says when it ended once endAt has passed, and nothing without a date', () => {
    expect(renewalText({ endAt: PAST, status: 'active' }, NOW, 'UTC')).toBe(
      'Your subscription ended on 1 December 2025.',
    );
    expect(renewalText({ endAt: undefined, status: 'active' }, NOW, 'UTC')).toBe('');
  });
});

describe('management actions', () => {
  it('offer Cancel while renewing and Restart while not, only before endAt', () => {
    expect(managementActions({ endAt: END, status: 'active' }, NOW)).toEqual({
      cancel: true,
      restart: false,
    });
    expect(managementActions({ endAt: END, status: 'cancelled' }, NOW)).toEqual({
      cancel: false,
      restart: true,
    });
    expect(managementActions({ endAt: PAST, status: 'active' }, NOW)).toEqual({
      cancel: false,
      restart: false,
    });
  });
});

describe('what cancelling will do', () => {
  const details = { status: 'active', startAt: '2026-03-01T10:00:00Z', endAt: '2027-03-01T10:00:00Z' };
  it('inside the refund window: a refund of ₹2,500 and premium ends now', () => {
    const now = new Date('2026-03-05T10:00:00Z');
    expect(inRefundWindow(details, now)).toBe(true);
    expect(cancelConsequence({ ...details, plan: { months: 12, amount: 250000 } }, now)).toBe(
      'You are within 7 days of the start, so cancelling refunds ₹2,500 and ends premium now.',
    );
  });
  it('outside it: premium stays until the end date, renewal off, restart possible', () => {
    const now = new Date('2026-03-08T10:00:01Z');
    expect(inRefundWindow(details, now)).toBe(false);
    expect(cancelConsequence(details, now, 'UTC')).toBe(
      'Premium stays until 1 March 2027 and renewal is turned off. You can restart it until then.',
    );
  });
  it('a renewed term counts from its own start (the end minus the plan months)', () => {
    const renewed = { status: 'active', startAt: '2025-03-01T10:00:00Z', endAt: '2027-03-01T10:00:00Z' };
    expect(inRefundWindow(renewed, new Date('2026-03-03T10:00:00Z'))).toBe(true);
  });
});
