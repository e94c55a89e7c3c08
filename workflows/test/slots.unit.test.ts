import { describe, expect, it } from 'vitest';
import { dueTimesAt, isDueAt, slotsBetween } from '../src/slots';

const at = (iso: string) => new Date(iso);

describe('the reminder slot rule', () => {
  it('makes a reader due when the UTC slot, on their wall clock, is their chosen time', () => {
    expect(isDueAt(at('2026-11-24T08:00:00Z'), 'UTC', '08:00')).toBe(true);
    expect(isDueAt(at('2026-11-24T08:00:00Z'), 'UTC', '08:15')).toBe(false);
    expect(isDueAt(at('2026-11-24T02:30:00Z'), 'Asia/Kolkata', '08:00')).toBe(true);
    expect(isDueAt(at('2026-11-24T02:15:00Z'), 'Asia/Kolkata', '08:00')).toBe(false);
    expect(isDueAt(at('2026-11-24T04:00:00Z'), 'Asia/Kathmandu', '09:45')).toBe(true);
    expect(isDueAt(at('2026-11-24T04:00:00Z'), 'Asia/Kathmandu', '10:00')).toBe(false);
    expect(isDueAt(at('2026-11-24T12:15:00Z'), 'America/New_York', '07:15')).toBe(true);
  });

  it('gives the local day of the slot, which differs from the UTC day across midnight', () => {
    expect(dueTimesAt(at('2026-11-24T20:00:00Z'), 'Pacific/Chatham')).toEqual({
      localDate: '2026-11-25',
      times: ['09:45'],
    });
    expect(dueTimesAt(at('2026-11-24T04:00:00Z'), 'America/Los_Angeles')).toEqual({
      localDate: '2026-11-23',
      times: ['20:00'],
    });
  });

  it('floors an instant inside a slot to the slot start', () => {
    expect(isDueAt(at('2026-11-24T08:07:59Z'), 'UTC', '08:00')).toBe(true);
  });

  it('sends readers whose time does not exist on a spring-forward day at the first slot after the gap', () => {
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00 UTC).
    expect(dueTimesAt(at('2026-03-08T06:45:00Z'), 'America/New_York').times).toEqual(['01:45']);
    expect(dueTimesAt(at('2026-03-08T07:00:00Z'), 'America/New_York')).toEqual({
      localDate: '2026-03-08',
      times: ['02:00', '02:15', '02:30', '02:45', '03:00'],
    });
    // The day after, 02:30 exists again and is due at its own slot.
    expect(isDueAt(at('2026-03-09T06:30:00Z'), 'America/New_York', '02:30')).toBe(true);
  });

  it('on a fall-back day makes the repeated hour due only once per slot rule pass, never twice in a row', () => {
    // New York, 2026-11-01: 02:00 EDT falls back to 01:00 EST (06:00 UTC).
    expect(dueTimesAt(at('2026-11-01T05:30:00Z'), 'America/New_York').times).toEqual(['01:30']);
    // 01:00 EST follows 01:45 EDT: the wall clock went back, nobody new is due.
    expect(dueTimesAt(at('2026-11-01T06:00:00Z'), 'America/New_York').times).toEqual([]);
    // 01:30 comes round again; the send key (reader, local day, channel) keeps it to one reminder.
    expect(dueTimesAt(at('2026-11-01T06:30:00Z'), 'America/New_York')).toEqual({
      localDate: '2026-11-01',
      times: ['01:30'],
    });
  });

  it('a reader at midnight is due at the slot that starts the local day', () => {
    expect(dueTimesAt(at('2026-11-23T18:30:00Z'), 'Asia/Kolkata')).toEqual({
      localDate: '2026-11-24',
      times: ['00:00'],
    });
  });

  it('treats an unknown zone as UTC', () => {
    expect(isDueAt(at('2026-11-24T08:00:00Z'), 'Not/AZone', '08:00')).toBe(true);
  });

  it('walks the slots missed since the last one, oldest first; the first run starts at the current slot', () => {
    expect(slotsBetween(null, at('2026-11-24T08:20:00Z')).map((d) => d.toISOString())).toEqual([
      '2026-11-24T08:15:00.000Z',
    ]);
    expect(
      slotsBetween(at('2026-11-24T07:45:00Z'), at('2026-11-24T08:20:00Z')).map((d) => d.toISOString()),
    ).toEqual(['2026-11-24T08:00:00.000Z', '2026-11-24T08:15:00.000Z']);
    expect(slotsBetween(at('2026-11-24T08:15:00Z'), at('2026-11-24T08:20:00Z'))).toEqual([]);
  });
});
