import { describe, expect, it } from 'vitest';
import { notificationTimeOptions } from './notificationTimes';

describe('notificationTimeOptions', () => {
  it('lists every 15 minutes from 00:00 to 23:45', () => {
    const times = notificationTimeOptions();
    expect(times).toHaveLength(96);
    expect(times[0]).toBe('00:00');
    expect(times[1]).toBe('00:15');
    expect(times[4]).toBe('01:00');
    expect(times[95]).toBe('23:45');
    expect(times).toContain('08:00');
    expect(new Set(times).size).toBe(96);
    for (const time of times) expect(time).toMatch(/^([01]\d|2[0-3]):(00|15|30|45)$/);
  });
});
