import { describe, expect, it } from 'vitest';
import { friendlyTimeZone, localClock, reminderTimeHint } from './timeZone';

describe('friendlyTimeZone', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  it('names a zone as people say it, with its offset, never the raw IANA name', () => {
    expect(friendlyTimeZone('Asia/Calcutta', winter)).toBe('India Standard Time (GMT+5:30)');
    expect(friendlyTimeZone('America/New_York', winter)).toBe('Eastern Time (GMT-5)');
    expect(friendlyTimeZone('UTC', winter)).toBe('Coordinated Universal Time (GMT+0)');
    expect(friendlyTimeZone('Etc/GMT+5', winter)).toBe('GMT-5');
  });
  it('gives back a zone it does not know as it is', () => {
    expect(friendlyTimeZone('Mars/Olympus', winter)).toBe('Mars/Olympus');
  });
});

describe('reminderTimeHint and localClock', () => {
  it('says the reminder time in the reader’s named zone', () => {
    expect(reminderTimeHint('08:00', 'Asia/Kolkata')).toMatch(
      /^Your reminder comes at 08:00, India Standard Time/,
    );
    expect(reminderTimeHint('08:00', undefined)).toBe('Your reminder comes at 08:00 in your local time.');
  });
  it('reads the clock in a zone', () => {
    expect(localClock('Asia/Kolkata', new Date('2026-01-15T20:00:00Z'))).toBe('01:30');
  });
});
