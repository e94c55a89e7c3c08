import { describe, expect, it } from 'vitest';
import { TimeZone } from './common';
import { canonicalTimeZone } from './days';

describe('a time zone’s one name', () => {
  it('every spelling of a zone is the zone’s canonical IANA name', () => {
    for (const [given, name] of [
      ['aMeRiCa/nEw_york', 'America/New_York'],
      ['US/Eastern', 'America/New_York'],
      ['utc', 'UTC'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['asia/calcutta', 'Asia/Kolkata'],
      ['Europe/Kiev', 'Europe/Kyiv'],
      ['etc/gmt+5', 'Etc/GMT+5'],
    ])
      expect(canonicalTimeZone(given as string), given).toBe(name);
  });

  it('the contract answers the name, and refuses what is no zone', () => {
    expect(TimeZone.parse('EUROPE/london')).toBe('Europe/London');
    for (const bad of ['Mars/Olympus', '+05:30', '', 'x'.repeat(65)])
      expect(TimeZone.safeParse(bad).success, bad).toBe(false);
  });
});
