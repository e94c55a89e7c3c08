import { formatMoney } from '../../shared/money';

/** reader.md §1/§9: the premium plan. Checkout is always in INR; the currency toggle only changes the price shown. */
export type Currency = 'INR' | 'USD';

export const CURRENCIES: readonly Currency[] = ['INR', 'USD'];

/** The currency the provider checkout charges in, and so the toggle's default. */
export const CHECKOUT_CURRENCY: Currency = 'INR';

/** Price per year in whole units of each currency (reader.md §9: USD 30 or INR 2500 per year). */
export const PRICE_PER_YEAR: Readonly<Record<Currency, number>> = { INR: 2500, USD: 30 };

/** reader.md §2: the plan as the purchase card names it. */
export const PLAN = {
  label: '1 Year plan',
  months: 12,
  amountInRupees: PRICE_PER_YEAR.INR,
} as const;

/** reader.md §9: cancelling within this many days of the subscription start is refunded. */
export const REFUND_WINDOW_DAYS = 7;

/** The yearly price, formatted like every amount (shared/money): '₹2,500', '$30'. */
export const priceLabel = (currency: Currency): string => formatMoney(PRICE_PER_YEAR[currency], currency);

/** The same price in words, for the purchase card's note and screen readers: '₹2,500 per year'. */
export const pricePerYearLabel = (currency: Currency): string => `${priceLabel(currency)} per year`;

export const isCurrency = (value: unknown): value is Currency => value === 'INR' || value === 'USD';

/** reader.md §2: what premium gives (the purchase card's features; the payment success page repeats them). */
export const PREMIUM_FEATURES: readonly string[] = [
  'Unlimited premium articles',
  'Access to community groups',
  '10k+ members from 40+ countries',
];
