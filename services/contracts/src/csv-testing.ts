// Test support for every CSV file of the product (`@nudge/contracts/csv-testing`): hostile cell values, and a reading
// of a file as spreadsheets in any locale would split it.

/** Values a reader or an admin can store that some spreadsheet, in some locale, would run as a formula. */
export const HOSTILE_CSV_VALUES = [
  "x;=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example","click")',
  '+1+cmd|',
  '-2+3+cmd',
  '@SUM(A1)',
  '\t=1+1',
  '\r=1+1',
  'a,=1+1',
  'a, +1',
  'a;"=1+1',
  'line\n=1+1',
  'line\r\n@SUM(A1)',
] as const;

const FORMULA_START =
  /(?:^|[,;\r\n])[ "]*(?:[=+@\t]|-(?!\d+(?:\.\d+)?(?:e[+-]?\d+)?(?:[,\r\n]|$))|\r(?!\n))/g;

/**
 * Every place in a CSV file where a cell could begin with a formula trigger (= + - @, tab, a carriage return that
 * does not end a record) in any reading of it: at the start, or after a comma, semicolon or line break, with spaces
 * and quotes in between (a spreadsheet that splits on `;` does not honour the quotes of a field it splits). A cell
 * that is a negative number is a number, not a formula. A safe file gives [].
 */
export function formulaStarts(csv: string): string[] {
  return [...csv.matchAll(FORMULA_START)].map((m) =>
    JSON.stringify(csv.slice(m.index, m.index + m[0].length + 12)),
  );
}
