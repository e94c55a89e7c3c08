/**
 * Dates from the billing service. Expected as ISO 8601 strings; epoch numbers are accepted too (the payment
 * provider counts in seconds), read as seconds below 1e11 and as milliseconds from there on.
 */
export type DateValue = string | number | null | undefined;

const SECONDS_LIMIT = 1e11;

export function toDate(value: DateValue): Date | null {
  if (value === null || value === undefined) return null;
  let input: string | number = value;
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (!trimmed) return null;
    input = /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
  }
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    input = Math.abs(input) < SECONDS_LIMIT ? input * 1000 : input;
  }
  const date = new Date(input);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** reader.md §9: dates in en-GB long form, e.g. '5 March 2026'; '' when the value is not a date. */
export function formatLongDate(value: DateValue, timeZone?: string): string {
  const date = toDate(value);
  if (!date) return '';
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }).format(date);
}
