import { describe, expect, it } from 'vitest';
import { dayKeyToUtcDate, weeklyStrip } from '../progress/history';
import { dayDescription, dayStateText, daysText } from './stripText';

describe('weekly strip words', () => {
  it('say read or not read, and which day is today', () => {
    const date = dayKeyToUtcDate('2025-03-03');
    expect(dayDescription({ date, isToday: true, read: true })).toBe('Monday 3 March, today: read');
    expect(dayDescription({ date, isToday: false, read: false })).toBe('Monday 3 March: not read');
    expect(dayStateText({ read: false })).toBe('not read');
    expect(dayStateText({ read: false, pending: true })).toBe('not read yet');
  });

  it('describe every day of the strip in the user time zone', () => {
    // 20:00 UTC on 2 March is 3 March in Kolkata.
    const strip = weeklyStrip(
      [{ type: 1, createdAt: '2025-03-02T20:00:00Z' }],
      new Date('2025-03-03T08:00:00Z'),
      'Asia/Kolkata',
    );
    expect(strip.map(dayDescription).at(-1)).toBe('Monday 3 March, today: read');
    expect(strip.map(dayDescription).at(-2)).toBe('Sunday 2 March: not read');
  });

  it('count days', () => {
    expect(daysText(1)).toBe('1 day');
    expect(daysText(4)).toBe('4 days');
  });
});
