/**
 * CSV (RFC 4180) with formula injection neutralised: a cell starting with = + - @ (or a tab / carriage return)
 * gets a leading apostrophe, so spreadsheets show it as text instead of running it.
 */
export function toCsv(headers: string[], rows: unknown[][]): string {
  const lines = [headers, ...rows].map((row) => row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = Array.isArray(value)
    ? value.join(';')
    : value instanceof Date
      ? value.toISOString()
      : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
