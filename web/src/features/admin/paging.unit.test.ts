import { describe, expect, it } from 'vitest';
import { longDate, needsFetch, nextServerPage, rangeText, rowsOfPage } from './paging';

describe('admin list paging', () => {
  it('prints the range as from - to of total', () => {
    expect(rangeText(0, 23)).toBe('1 - 10 of 23');
    expect(rangeText(2, 23)).toBe('21 - 23 of 23');
    expect(rangeText(0, 0)).toBe('0 - 0 of 0');
  });

  it('loads a page only when its rows are not held yet, and asks for the next server page', () => {
    expect(needsFetch(0, 0, false)).toBe(true);
    expect(needsFetch(10, 0, true)).toBe(false);
    expect(needsFetch(10, 1, true)).toBe(true);
    expect(needsFetch(20, 1, true)).toBe(false);
    expect(nextServerPage(0)).toBe(1);
    expect(nextServerPage(20)).toBe(3);
  });

  it('slices the appended rows by page', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    expect(rowsOfPage(rows, 2)).toEqual([20, 21, 22]);
  });

  it('shows dates in en-GB long form', () => {
    expect(longDate('2026-11-05T10:00:00.000Z')).toBe('5 November 2026');
    expect(longDate(null)).toBe('');
  });
});
