import { describe, expect, it } from 'vitest';
import { longDate, rangeText } from './paging';

describe('admin list paging', () => {
  it('prints the range as from - to of total', () => {
    expect(rangeText(0, 23)).toBe('1 - 10 of 23');
    expect(rangeText(2, 23)).toBe('21 - 23 of 23');
    expect(rangeText(0, 0)).toBe('0 - 0 of 0');
    expect(rangeText(1, 60, 25)).toBe('26 - 50 of 60');
  });

  it('shows dates in en-GB long form', () => {
    expect(longDate('2026-11-05T10:00:00.000Z')).toBe('5 November 2026');
    expect(longDate(null)).toBe('');
  });
});
