import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvLine, toCsv, withCsvBom } from './csv';
import { formulaStarts, HOSTILE_CSV_VALUES } from './testing';

describe('the CSV writer', () => {
  it('neutralises a formula that a `;` locale would find after a separator inside a cell', () => {
    expect(csvCell("x;=cmd|' /C calc'!A0")).toBe(`"x;'=cmd|' /C calc'!A0"`);
    expect(csvCell('a, +1')).toBe(`"a,' +1"`);
    expect(csvCell('a;"=1+1')).toBe(`"a;'""=1+1"`);
    expect(csvCell('line\n=1+1')).toBe(`"line\n'=1+1"`);
  });

  it('neutralises every leading trigger: = + - @, tab and carriage return', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe(`"'\t=1"`);
    expect(csvCell('\r=1')).toBe(`"'\r'=1"`);
  });

  it('leaves no cell that starts a formula in any reading of a file of hostile values', () => {
    const csv = toCsv(
      ['Value', 'Again'],
      HOSTILE_CSV_VALUES.map((v) => [v, [v, v]]),
    );
    expect(formulaStarts(csv)).toEqual([]);
    // The reading finds a formula in each value as it was stored.
    for (const value of HOSTILE_CSV_VALUES) expect(formulaStarts(value), value).not.toEqual([]);
  });

  it('quotes as RFC 4180 and ends every record with CRLF', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 'b c'])).toBe('a,b c\r\n');
    expect(toCsv(['h'], [['1'], ['2']])).toBe(`${CSV_BOM}h\r\n1\r\n2\r\n`);
  });

  it('writes numbers, booleans and dates as they are: a negative number stays a number', () => {
    expect(csvLine([-5, 2.5, true, new Date('2026-01-02T03:04:05.000Z')])).toBe(
      '-5,2.5,true,2026-01-02T03:04:05.000Z\r\n',
    );
    expect(csvCell('2026-01-02T03:04:05.000Z')).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('a CSV file for spreadsheets', () => {
  it('begins with the UTF-8 byte order mark once, so a spreadsheet reads "Müller"', () => {
    const bytes = new TextEncoder().encode(toCsv(['Name'], [['Müller']]));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe('Name\r\nMüller\r\n');
    const saved = withCsvBom(new TextDecoder().decode(bytes));
    expect(withCsvBom(saved)).toBe(saved);
    expect(saved.startsWith(CSV_BOM) && !saved.slice(1).startsWith(CSV_BOM)).toBe(true);
  });
});
