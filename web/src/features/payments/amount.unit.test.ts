import { describe, expect, it } from 'vitest';
import { formatAmount, paymentRows } from './amount';

describe('amount', () => {
  it('divides minor units by 100 and adds a rupee sign', () => {
    expect(formatAmount(250000)).toBe('₹2,500');
    expect(formatAmount(12345)).toBe('₹123.45');
    expect(formatAmount(5)).toBe('₹0.05');
    expect(formatAmount(0)).toBe('₹0');
    expect(formatAmount('250000')).toBe('₹2,500');
    expect(formatAmount(-250000)).toBe('-₹2,500');
  });

  it('gives nothing for values that are not amounts', () => {
    expect(formatAmount(undefined)).toBe('');
    expect(formatAmount('')).toBe('');
    expect(formatAmount('abc')).toBe('');
    expect(formatAmount(Number.NaN)).toBe('');
  });
});

describe('payment rows', () => {
  it('show start, end and amount, with a dash for what is missing', () => {
    const rows = paymentRows(
      [
        { start: '2025-03-05T10:00:00Z', end: '2026-03-05T10:00:00Z', amount: 250000 },
        { start: null, end: 'later', amount: Number.NaN },
        { start: '2025-03-06T10:00:00Z', end: '2025-03-06T10:00:00Z', amount: -250000, kind: 'refund' },
      ],
      'UTC',
    );
    expect(rows.map(({ key: _key, ...row }) => row)).toEqual([
      { start: '5 March 2025', end: '5 March 2026', kind: 'Payment', amount: '₹2,500' },
      { start: '—', end: '—', kind: 'Payment', amount: '—' },
      { start: '6 March 2025', end: '6 March 2025', kind: 'Refund', amount: '-₹2,500' },
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(3);
  });
});
