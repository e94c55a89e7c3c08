// Test support shared by the tiers and the web (`@nudge/contracts/testing`): hostile input for the CSV files and the
// readers of markup, and the checks that say whether they held.

// ── CSV files ─────────────────────────────────────────────────────────────────────────────────────────────────

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

// ── text that costs a lot to read ───────────────────────────────────────────────────────────────────────────────

/** Bodies of about `n` units each that make a naive or backtracking reader of markup slow (quadratic or worse). */
export const ADVERSARIAL_BODIES: Record<string, (n: number) => string> = {
  'unclosed <': (n) => '<'.repeat(n),
  'nested unclosed tags, closed by other names': (n) => `${'<b>'.repeat(n)}${'</i>'.repeat(n)}`,
  'nested unclosed blocks': (n) => '<div><span>'.repeat(n),
  'a huge unclosed attribute': (n) => `<a title="${'x'.repeat(n * 10)}`,
  'a tag with thousands of attributes': (n) => `<a ${'x="y" '.repeat(n)}>`,
  'unclosed comments': (n) => '<!--'.repeat(n),
  'an unclosed script of near end tags': (n) => `<script>${'</scrip'.repeat(n)}`,
  'a run of spaces': (n) => `x${' '.repeat(n * 4)}x`,
  'entity starts': (n) => '&#'.repeat(n),
  'blank paragraphs': (n) => '<p>\n \n'.repeat(n),
  'unclosed line breaks': (n) => '<br '.repeat(n),
};

/** What growth() may return for a reader that is linear; a quadratic one gives about 64. */
export const LINEAR_GROWTH_LIMIT = 32;

/**
 * How many times longer `read` takes on make(8n) than on make(n) (by default 6,250 and 50,000 units: 50,000 `<`, say):
 * about 8 when its cost is linear in the input, about 64 when quadratic. CPU time, best of several runs each, after a
 * warm-up, and measured again up to twice while above the limit, so a busy machine does not fail a linear reader.
 */
export function growth(read: (input: string) => unknown, make: (n: number) => string, n = 6_250): number {
  const small = make(n);
  const large = make(8 * n);
  // CPU time of this process, not wall-clock time: other processes on a busy machine do not count.
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const best = (input: string, runs: number) => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let run = 0; run < runs; run += 1) {
      const started = cpu();
      read(input);
      fastest = Math.min(fastest, cpu() - started);
    }
    return fastest;
  };
  // Warm-up on both sizes, so the engine has compiled what it will run before anything is timed.
  best(small, 5);
  best(large, 1);
  const measure = () => best(large, 3) / Math.max(best(small, 5), 10);
  let ratio = measure();
  for (let again = 0; again < 2 && ratio >= LINEAR_GROWTH_LIMIT; again += 1)
    ratio = Math.min(ratio, measure());
  return ratio;
}
