import { describe, expect, it } from 'vitest';
import {
  addDays,
  currentStreak,
  dayKey,
  displayedStreak,
  type HistoryEntry,
  isRead,
  readDays,
  resolveTimeZone,
  totalRead,
  weeklyStrip,
} from './history';

const read = (createdAt: string, type = 1): HistoryEntry => ({ type, status: true, createdAt });

describe('isRead', () => {
  it('counts types 1 and 2 and ignores type 0 and other types', () => {
    expect(isRead({ type: 1, status: true, createdAt: '2026-03-10T10:00:00Z' })).toBe(true);
    expect(isRead({ type: 2, status: true, createdAt: '2026-03-10T10:00:00Z' })).toBe(true);
    expect(isRead({ type: 0, status: true, createdAt: '2026-03-10T10:00:00Z' })).toBe(false);
    expect(isRead({ type: 3, status: true, createdAt: '2026-03-10T10:00:00Z' })).toBe(false);
  });

  it('does not count an entry explicitly marked unread, but counts one without a status', () => {
    expect(isRead({ type: 1, status: false, createdAt: '2026-03-10T10:00:00Z' })).toBe(false);
    expect(isRead({ type: 2, createdAt: '2026-03-10T10:00:00Z' })).toBe(true);
  });
});

describe('totalRead', () => {
  it('counts read entries, including several on one day, and skips non-reads', () => {
    const history: HistoryEntry[] = [
      read('2026-03-10T08:00:00Z'),
      read('2026-03-10T09:00:00Z', 2),
      read('2026-03-09T09:00:00Z', 0),
      { type: 1, status: false, createdAt: '2026-03-08T09:00:00Z' },
    ];
    expect(totalRead(history)).toBe(2);
    expect(totalRead([])).toBe(0);
  });

  it('counts distinct posts: the same post read on two days is one post read', () => {
    const history: HistoryEntry[] = [
      { templateId: 'a', type: 1, status: true, createdAt: '2026-03-10T08:00:00Z' },
      { templateId: 'b', type: 1, status: true, createdAt: '2026-03-10T09:00:00Z' },
      { templateId: 'a', type: 2, status: true, createdAt: '2026-03-09T08:00:00Z' },
    ];
    expect(totalRead(history)).toBe(2);
  });
});

describe('dayKey', () => {
  it('puts 2026-03-10T20:00Z on 11 March in Asia/Kolkata and 10 March in America/New_York', () => {
    expect(dayKey('2026-03-10T20:00:00Z', 'Asia/Kolkata')).toBe('2026-03-11');
    expect(dayKey('2026-03-10T20:00:00Z', 'America/New_York')).toBe('2026-03-10');
    expect(dayKey(new Date('2026-03-10T20:00:00Z'), 'UTC')).toBe('2026-03-10');
  });

  it('follows Kolkata midnight at 18:30 UTC', () => {
    expect(dayKey('2026-03-10T18:29:59Z', 'Asia/Kolkata')).toBe('2026-03-10');
    expect(dayKey('2026-03-10T18:30:00Z', 'Asia/Kolkata')).toBe('2026-03-11');
  });

  it('follows Europe/London across the spring-forward day (29 March 2026)', () => {
    expect(dayKey('2026-03-28T23:30:00Z', 'Europe/London')).toBe('2026-03-28'); // GMT: 23:30
    expect(dayKey('2026-03-29T00:30:00Z', 'Europe/London')).toBe('2026-03-29'); // GMT: 00:30
    expect(dayKey('2026-03-29T22:59:59Z', 'Europe/London')).toBe('2026-03-29'); // BST: 23:59:59
    expect(dayKey('2026-03-29T23:00:00Z', 'Europe/London')).toBe('2026-03-30'); // BST: 00:00
  });

  it('follows Europe/London across the fall-back day (25 October 2026)', () => {
    expect(dayKey('2026-10-24T23:30:00Z', 'Europe/London')).toBe('2026-10-25'); // BST: 00:30
    expect(dayKey('2026-10-25T23:30:00Z', 'Europe/London')).toBe('2026-10-25'); // GMT: 23:30
    expect(dayKey('2026-10-26T00:00:00Z', 'Europe/London')).toBe('2026-10-26');
  });

  it('treats an unknown or empty time zone as UTC', () => {
    expect(resolveTimeZone('Not/AZone')).toBe('UTC');
    expect(resolveTimeZone('')).toBe('UTC');
    expect(resolveTimeZone(undefined)).toBe('UTC');
    expect(resolveTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(dayKey('2026-03-10T20:00:00Z', 'Not/AZone')).toBe('2026-03-10');
  });

  it('rejects an invalid date', () => {
    expect(() => dayKey('not a date', 'UTC')).toThrow(RangeError);
  });
});

describe('addDays', () => {
  it('moves by calendar days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
  });
});

describe('readDays', () => {
  it('collects the local days with a read and skips entries whose date cannot be read', () => {
    const history: HistoryEntry[] = [
      read('2026-03-10T20:00:00Z'),
      read('2026-03-09T10:00:00Z', 0),
      { type: 1, createdAt: 'garbage' },
    ];
    expect([...readDays(history, 'Asia/Kolkata')]).toEqual(['2026-03-11']);
    expect([...readDays(history, 'America/New_York')]).toEqual(['2026-03-10']);
  });
});

describe('weeklyStrip', () => {
  const today = new Date('2026-03-11T10:00:00Z'); // Wednesday

  it('shows the last 7 days ending today, today last and marked', () => {
    const strip = weeklyStrip([], today, 'UTC');
    expect(strip.map((d) => d.key)).toEqual([
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
    ]);
    expect(strip.map((d) => d.label)).toEqual(['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed']);
    expect(strip.map((d) => d.isToday)).toEqual([false, false, false, false, false, false, true]);
    expect(strip.every((d) => !d.isFuture && !d.read)).toBe(true);
    expect(strip[6]?.dayOfMonth).toBe(11);
    expect(strip[6]?.date.toISOString()).toBe('2026-03-11T00:00:00.000Z');
  });

  it('marks the days with a read of type 1 or 2 only', () => {
    const history = [
      read('2026-03-11T08:00:00Z'),
      read('2026-03-09T08:00:00Z', 2),
      read('2026-03-08T08:00:00Z', 0),
      read('2026-03-04T08:00:00Z'), // before the strip
    ];
    const strip = weeklyStrip(history, today, 'UTC');
    expect(strip.filter((d) => d.read).map((d) => d.key)).toEqual(['2026-03-09', '2026-03-11']);
  });

  it('uses the time zone for both today and the reads', () => {
    const evening = new Date('2026-03-10T20:00:00Z');
    const history = [read('2026-03-10T20:00:00Z')];
    const kolkata = weeklyStrip(history, evening, 'Asia/Kolkata');
    const newYork = weeklyStrip(history, evening, 'America/New_York');
    expect(kolkata.at(-1)).toMatchObject({ key: '2026-03-11', isToday: true, read: true });
    expect(newYork.at(-1)).toMatchObject({ key: '2026-03-10', isToday: true, read: true });
    expect(newYork[0]?.key).toBe('2026-03-04');
  });

  it('has 7 distinct consecutive days across a DST change', () => {
    const strip = weeklyStrip([], new Date('2026-03-29T23:30:00Z'), 'Europe/London'); // 00:30 on 30 March
    expect(strip.map((d) => d.key)).toEqual([
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
    ]);
    expect(strip.at(-1)?.label).toBe('Mon');
  });

  it('gives the calendar week containing today when weekStartsOn is passed', () => {
    const history = [read('2026-03-09T08:00:00Z')];
    const strip = weeklyStrip(history, today, 'UTC', 1); // weeks start on Monday
    expect(strip.map((d) => d.label)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(strip[0]).toMatchObject({ key: '2026-03-09', read: true, isFuture: false });
    expect(strip[2]).toMatchObject({ key: '2026-03-11', isToday: true, isFuture: false });
    expect(strip.slice(3).every((d) => d.isFuture && !d.read && !d.isToday)).toBe(true);
    expect(weeklyStrip([], today, 'UTC', 3)[0]?.key).toBe('2026-03-11'); // today is the first day
  });
});

describe('weeklyStrip from the sign-up day', () => {
  it('shows days before the sign-up as neither read nor missed', () => {
    const today = new Date('2026-03-11T10:00:00Z');
    const strip = weeklyStrip([], today, 'UTC', undefined, '2026-03-10T22:00:00Z');
    expect(strip.map((day) => day.beforeStart)).toEqual([true, true, true, true, true, false, false]);
    expect(strip.some((day) => day.read)).toBe(false);
    // In Kolkata 22:00 UTC on 10 March is already 11 March: only today is after the sign-up.
    const kolkata = weeklyStrip([], today, 'Asia/Kolkata', undefined, '2026-03-10T22:00:00Z');
    expect(kolkata.filter((day) => !day.beforeStart).map((day) => day.key)).toEqual(['2026-03-11']);
    // A read before the recorded sign-up still shows as read; no sign-up date means no neutral days.
    const early = weeklyStrip(
      [read('2026-03-06T08:00:00Z')],
      today,
      'UTC',
      undefined,
      '2026-03-10T08:00:00Z',
    );
    expect(early.find((day) => day.key === '2026-03-06')).toMatchObject({ read: true, beforeStart: false });
    expect(weeklyStrip([], today, 'UTC').some((day) => day.beforeStart)).toBe(false);
  });

  it('keeps today neutral (pending, not missed) until it is read, and only today', () => {
    const today = new Date('2026-03-11T10:00:00Z');
    const dayOne = weeklyStrip([], today, 'UTC', undefined, '2026-03-11T09:00:00Z');
    expect(dayOne.at(-1)).toMatchObject({ isToday: true, read: false, pending: true });
    expect(dayOne.filter((day) => day.pending)).toHaveLength(1);
    const afterRead = weeklyStrip(
      [read('2026-03-11T09:30:00Z')],
      today,
      'UTC',
      undefined,
      '2026-03-11T09:00:00Z',
    );
    expect(afterRead.at(-1)).toMatchObject({ read: true, pending: false });
    expect(displayedStreak([read('2026-03-11T09:30:00Z')], today, 'UTC')).toBe(1);
  });
});

describe('currentStreak and displayedStreak', () => {
  const today = new Date('2026-03-11T10:00:00Z');

  it('is 0 and displayed 0 with no read at all, so it agrees with Total read on day one', () => {
    expect(currentStreak([], today, 'UTC')).toBe(0);
    expect(displayedStreak([], today, 'UTC')).toBe(0);
    expect(displayedStreak([read('2026-03-10T08:00:00Z', 0)], today, 'UTC')).toBe(0);
  });

  it('counts consecutive previous days and stops at the first gap', () => {
    const history = [
      read('2026-03-10T08:00:00Z'),
      read('2026-03-09T23:59:59Z', 2),
      // 8 March: no read
      read('2026-03-07T08:00:00Z'),
      read('2026-03-06T08:00:00Z'),
    ];
    expect(currentStreak(history, today, 'UTC')).toBe(2);
    expect(displayedStreak(history, today, 'UTC')).toBe(3);
  });

  it('does not count a read today in the previous days, but the displayed value is still the count plus one', () => {
    expect(currentStreak([read('2026-03-11T08:00:00Z')], today, 'UTC')).toBe(0);
    expect(displayedStreak([read('2026-03-11T08:00:00Z')], today, 'UTC')).toBe(1);
    const withToday = [read('2026-03-11T08:00:00Z'), read('2026-03-10T08:00:00Z')];
    expect(currentStreak(withToday, today, 'UTC')).toBe(1);
    expect(displayedStreak(withToday, today, 'UTC')).toBe(2);
  });

  it('is broken by yesterday having no read even when earlier days do', () => {
    const history = [read('2026-03-09T08:00:00Z'), read('2026-03-08T08:00:00Z')];
    expect(currentStreak(history, today, 'UTC')).toBe(0);
  });

  it('ignores type 0 entries, unread entries and entries without a readable date', () => {
    const history: HistoryEntry[] = [
      read('2026-03-10T08:00:00Z', 0),
      { type: 1, status: false, createdAt: '2026-03-10T09:00:00Z' },
      { type: 1, createdAt: 'garbage' },
    ];
    expect(currentStreak(history, today, 'UTC')).toBe(0);
    expect(currentStreak([...history, read('2026-03-10T10:00:00Z')], today, 'UTC')).toBe(1);
  });

  it('counts several reads on one day once', () => {
    const history = [
      read('2026-03-10T08:00:00Z'),
      read('2026-03-10T09:00:00Z'),
      read('2026-03-10T10:00:00Z'),
    ];
    expect(currentStreak(history, today, 'UTC')).toBe(1);
  });

  it('decides previous days in the user time zone', () => {
    const morning = new Date('2026-03-11T10:00:00Z');
    const history = [read('2026-03-10T20:00:00Z')];
    expect(currentStreak(history, morning, 'Asia/Kolkata')).toBe(0); // the read was today (11 March) there
    expect(currentStreak(history, morning, 'America/New_York')).toBe(1); // yesterday (10 March) there
  });

  it('runs across the Europe/London DST days', () => {
    // One read a day at 23:30 local time from 27 to 30 March (the clocks go forward on 29 March).
    const history = [
      read('2026-03-27T23:30:00Z'), // GMT
      read('2026-03-28T23:30:00Z'), // GMT
      read('2026-03-29T22:30:00Z'), // BST
      read('2026-03-30T22:30:00Z'), // BST
    ];
    expect(currentStreak(history, new Date('2026-03-31T08:00:00Z'), 'Europe/London')).toBe(4);
    expect(currentStreak(history, new Date('2026-03-31T08:00:00Z'), 'UTC')).toBe(4);
    const fallBack = [read('2026-10-24T23:30:00Z'), read('2026-10-25T23:30:00Z')]; // 25 Oct 00:30 BST, 25 Oct 23:30 GMT
    expect(currentStreak(fallBack, new Date('2026-10-26T08:00:00Z'), 'Europe/London')).toBe(1);
    expect(currentStreak(fallBack, new Date('2026-10-26T08:00:00Z'), 'UTC')).toBe(2);
  });
});
