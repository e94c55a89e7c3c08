import { PREMIUM_PLAN } from '@nudge/contracts';

export { PREMIUM_PLAN };

/**
 * Razorpay needs a finite number of billing cycles. The yearly plan renews every year for up to ten years (a
 * subscription then completes and the reader subscribes again); one cycle would mean no renewal at all.
 */
export const TOTAL_COUNT = 10;

/** reader.md §9: a cancel within 7 days of the start of the paid term cancels at once and refunds it. */
export const REFUND_WINDOW_MS = 7 * 24 * 3600_000;

/**
 * A subscription that is expected to renew keeps premium this long past its end while the renewal charge arrives
 * (Razorpay charges at the end of the term; UPI and e-mandate debits can settle a day or more later).
 */
export const RENEWAL_GRACE_MS = 48 * 3600_000;

const DAY_MS = 24 * 3600_000;

/** The same calendar day `months` later (clamped to the month's last day), as Razorpay counts billing cycles. */
export { addMonths } from '@nudge/contracts/days';

export const daysBetween = (a: Date, b: Date) => (b.getTime() - a.getTime()) / DAY_MS;

/** reader.md §9: dates in en-GB long form, e.g. '5 March 2026', in the reader's time zone. */
export function longDate(iso: string, timeZone = 'UTC'): string {
  const format = (tz: string) =>
    new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: tz }).format(
      new Date(iso),
    );
  try {
    return format(timeZone);
  } catch {
    return format('UTC');
  }
}

/** 250000 -> '₹2500' (as the web shows amounts), 12345 -> '₹123.45'. */
export function rupees(paise: number): string {
  const whole = Math.floor(Math.abs(paise) / 100);
  const rest = Math.abs(paise) % 100;
  return `${paise < 0 ? '-' : ''}₹${whole}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}
