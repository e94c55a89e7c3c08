/** reader.md §1/§9: the premium plan. Checkout is always in INR; the currency toggle only changes the price shown. */
export type Currency = 'INR' | 'USD';

export const CURRENCIES: readonly Currency[] = ['INR', 'USD'];

/** The currency the provider checkout charges in, and so the toggle's default. */
export const CHECKOUT_CURRENCY: Currency = 'INR';

/** Price per year in whole units of each currency (reader.md §9: USD 30 or INR 2500 per year). */
export const PRICE_PER_YEAR: Readonly<Record<Currency, number>> = { INR: 2500, USD: 30 };

const SYMBOL: Readonly<Record<Currency, string>> = { INR: '₹', USD: '$' };

/** reader.md §2: the plan as the purchase card names it. */
export const PLAN = {
  label: '1 Year plan',
  months: 12,
  amountInRupees: PRICE_PER_YEAR.INR,
} as const;

/** reader.md §9: cancelling within this many days of the subscription start is refunded. */
export const REFUND_WINDOW_DAYS = 7;

/** The yearly price with its symbol and no separators, as the spec writes it: '₹2500', '$30'. */
export const priceLabel = (currency: Currency): string => `${SYMBOL[currency]}${PRICE_PER_YEAR[currency]}`;

/** The same price in words, for the purchase card's note and screen readers: '₹2500 per year'. */
export const pricePerYearLabel = (currency: Currency): string => `${priceLabel(currency)} per year`;

export const isCurrency = (value: unknown): value is Currency => value === 'INR' || value === 'USD';
