import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_CURRENCY,
  isCurrency,
  PLAN,
  PRICE_PER_YEAR,
  priceLabel,
  pricePerYearLabel,
  REFUND_WINDOW_DAYS,
} from './pricing';

describe('price label', () => {
  it('shows the yearly price with its symbol and no separators', () => {
    expect(priceLabel('INR')).toBe('₹2,500');
    expect(priceLabel('USD')).toBe('$30');
  });

  it('says per year in the long form', () => {
    expect(pricePerYearLabel('INR')).toBe('₹2,500 per year');
    expect(pricePerYearLabel('USD')).toBe('$30 per year');
  });
});

describe('plan constants (reader.md §9)', () => {
  it('is a 12 month plan of 2500 rupees or 30 dollars, charged in INR', () => {
    expect(PLAN).toEqual({ label: '1 Year plan', months: 12, amountInRupees: 2500 });
    expect(PRICE_PER_YEAR).toEqual({ INR: 2500, USD: 30 });
    expect(CHECKOUT_CURRENCY).toBe('INR');
    expect(REFUND_WINDOW_DAYS).toBe(7);
  });

  it('recognises the two currencies only', () => {
    expect(isCurrency('INR')).toBe(true);
    expect(isCurrency('USD')).toBe(true);
    expect(isCurrency('inr')).toBe(false);
    expect(isCurrency(undefined)).toBe(false);
  });
});
