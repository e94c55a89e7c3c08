// CSV files for spreadsheets: the one writer of the server's exports (EventLogs.csv, users.csv) and the admin app's
// downloads (CheckIns.csv, report_data.csv). Pure and zod-free, so the web app imports it at run time
// (`@nudge/contracts/csv`).

/**
 * Where a spreadsheet could start a formula (OWASP, "CSV Injection"): the start of the cell, or anything after a
 * separator or line break inside it, since a spreadsheet in a locale whose list separator is `;` (or one that does
 * not honour the quotes) splits the cell there; spaces and quotes may stand in between. The trigger is = + - @, a tab
 * or a carriage return. Linear: each look-ahead scans only the run of spaces and quotes that follows one separator.
 */
const FORMULA_START = /(?<=^|[,;\r\n])(?=[ "]*[=+\-@\t\r])/g;
/** Cells holding one of these are quoted (RFC 4180; `;` and tab too, for spreadsheets that split on them). */
const NEEDS_QUOTES = /[",;\r\n\t]/;

/**
 * One cell: formula triggers neutralised with an apostrophe (a spreadsheet shows the text instead of running it),
 * then quoted as RFC 4180 when needed. Numbers and booleans are written as they are (`-5` stays a number); a list is
 * joined with `;`, a date written as ISO 8601.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  const text = Array.isArray(value)
    ? value.join(';')
    : value instanceof Date
      ? value.toISOString()
      : String(value);
  const safe = text.replace(FORMULA_START, "'");
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, ending with CRLF (RFC 4180), so records can be streamed one after another. */
export const csvLine = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The UTF-8 byte order mark every file begins with: without it Excel reads a CSV in the machine's legacy code page
 * ("MÃ¼ller" for "Müller").
 */
export const CSV_BOM = '\uFEFF';

/** A file's first record: the byte order mark, then the header record (a streamed file starts with it). */
export const csvHeader = (headers: readonly string[]): string => CSV_BOM + csvLine(headers);

/** A file's text as saved: with the byte order mark, which decoding a download (fetch, TextDecoder) drops. */
export const withCsvBom = (text: string): string => (text.startsWith(CSV_BOM) ? text : CSV_BOM + text);

/** A whole file: the byte order mark and the header record, then one record per row. */
export const toCsv = (headers: readonly string[], rows: readonly (readonly unknown[])[]): string =>
  csvHeader(headers) + rows.map(csvLine).join('');

/** admin.md §7: EventLogs.csv's columns (the server streams the file; the admin app writes it from a JSON answer). */
export const EVENT_LOG_CSV_COLUMNS = [
  'Id',
  'User Id',
  'User Email',
  'Event Type',
  'Event Value',
  'Created On',
] as const;
