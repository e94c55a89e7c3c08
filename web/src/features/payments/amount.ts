import { formatMoney } from '../../shared/money';
import { formatLongDate } from '../subscription/dates';
import type { PaymentHistoryEntry } from './types';

/**
 * reader.md §2: amounts come in minor units (paise) and are shown divided by 100 with a rupee sign, formatted like
 * every price (shared/money): 250000 -> '₹2,500', 12345 -> '₹123.45'. '' when not a number.
 */
export function formatAmount(minor: unknown): string {
  const value = typeof minor === 'string' && minor.trim() !== '' ? Number(minor) : minor;
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return formatMoney(Math.round(value) / 100, 'INR');
}

export interface PaymentRow {
  key: string;
  start: string;
  end: string;
  /** 'Payment' or 'Refund' (a refund is a line of its own, with a negative amount). */
  kind: string;
  amount: string;
}

const NOT_GIVEN = '—';

/** The Payment History list, in the order the server gives; a missing value shows as a dash. */
export const paymentRows = (history: readonly PaymentHistoryEntry[], timeZone?: string): PaymentRow[] =>
  history.map((entry, index) => ({
    key: `${index}-${String(entry.start)}`,
    start: formatLongDate(entry.start, timeZone) || NOT_GIVEN,
    end: formatLongDate(entry.end, timeZone) || NOT_GIVEN,
    kind: entry.kind === 'refund' || (entry.kind === undefined && entry.amount < 0) ? 'Refund' : 'Payment',
    amount: formatAmount(entry.amount) || NOT_GIVEN,
  }));
