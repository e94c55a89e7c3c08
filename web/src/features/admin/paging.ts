/** admin.md §9: every admin table pages by 10. */
export const PAGE_SIZE = 10;
/** The page sizes a table offers beside the contract's 10. */
export const PAGE_SIZES = [PAGE_SIZE, 25, 50, 100];

/** admin.md §2: the range text 'from - to of total' of a 0-based page. */
export function rangeText(page: number, total: number, pageSize = PAGE_SIZE): string {
  if (total <= 0) return '0 - 0 of 0';
  const from = page * pageSize + 1;
  const to = Math.min(total, (page + 1) * pageSize);
  return `${from} - ${to} of ${total}`;
}

/** admin.md §2: dates in en-GB long form (day, month name, year); '' for none, the text itself when unreadable. */
export function longDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
