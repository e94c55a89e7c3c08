import { formatLongDate } from '../subscription/dates';
import type { PaymentHistoryEntry } from './types';

/**
 * reader.md §2: amounts come in minor units (paise) and are shown divided by 100 with a rupee sign: 250000 ->
 * '₹2500', 12345 -> '₹123.45' (paise only when there are some, like the price label). '' when not a number.
 */
export function formatAmount(minor: unknown): string {
  const value = typeof minor === 'string' && minor.trim() !== '' ? Number(minor) : minor;
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  const paise = Math.round(Math.abs(value));
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  const sign = value < 0 && paise > 0 ? '-' : '';
  return `${sign}₹${rupees}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}

export interface PaymentRow {
  key: string;
  start: string;
  end: string;
  amount: string;
}

const NOT_GIVEN = '—';

/** The Payment History list, in the order the server gives; a missing value shows as a dash. */
export const paymentRows = (history: readonly PaymentHistoryEntry[], timeZone?: string): PaymentRow[] =>
  history.map((entry, index) => ({
    key: `${index}-${String(entry.start)}`,
    start: formatLongDate(entry.start, timeZone) || NOT_GIVEN,
    end: formatLongDate(entry.end, timeZone) || NOT_GIVEN,
    amount: formatAmount(entry.amount) || NOT_GIVEN,
  }));
