/** admin.md §9: every admin table pages by 10. */
export const PAGE_SIZE = 10;

/** admin.md §2: the range text 'from - to of total' of a 0-based page. */
export function rangeText(page: number, total: number, pageSize = PAGE_SIZE): string {
  if (total <= 0) return '0 - 0 of 0';
  const from = page * pageSize + 1;
  const to = Math.min(total, (page + 1) * pageSize);
  return `${from} - ${to} of ${total}`;
}

/**
 * Whether showing 0-based `page` needs a call: rows are appended page by page (admin.md §2), so a page is loaded
 * when its first row is. A list never loaded needs its first page.
 */
export function needsFetch(
  loadedRows: number,
  page: number,
  loadedOnce: boolean,
  pageSize = PAGE_SIZE,
): boolean {
  if (!loadedOnce) return true;
  return loadedRows <= page * pageSize;
}

/** The rows of 0-based `page` among the appended rows. */
export const rowsOfPage = <Row>(rows: Row[], page: number, pageSize = PAGE_SIZE): Row[] =>
  rows.slice(page * pageSize, (page + 1) * pageSize);

/** The 1-based page the server is asked for, given how many rows are already held (appending, never refetching). */
export const nextServerPage = (loadedRows: number, pageSize = PAGE_SIZE): number =>
  Math.floor(loadedRows / pageSize) + 1;

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
