import { describe, expect, it } from 'vitest';
import { CHECKIN_NEEDS_EMAIL, firstCheckinHint } from './firstCheckin';

const reader = (
  time: string,
  over: Partial<{ enableEmail: boolean; active: boolean; timeZone: string }> = {},
) => ({
  enableEmail: over.enableEmail ?? true,
  notiinfo: { time, active: over.active ?? true },
  timeZone: over.timeZone ?? 'Asia/Kolkata',
});

describe('firstCheckinHint', () => {
  const now = new Date('2026-03-11T03:00:00Z'); // 08:30 in Kolkata

  it("says today's or tomorrow's reminder e-mail, by the reader's own clock", () => {
    expect(firstCheckinHint(reader('09:00'), true, now)).toBe(
      "Your first question comes with today's reminder e-mail at 09:00.",
    );
    expect(firstCheckinHint(reader('08:00'), true, now)).toBe(
      "Your first question comes with tomorrow's reminder e-mail at 08:00.",
    );
    expect(firstCheckinHint(reader('08:00', { timeZone: 'UTC' }), true, now)).toContain("today's");
  });

  it('asks for e-mail reminders when they are off, and says nothing when e-mails carry no question', () => {
    expect(firstCheckinHint(reader('09:00', { enableEmail: false }), true, now)).toBe(CHECKIN_NEEDS_EMAIL);
    expect(firstCheckinHint(reader('09:00', { active: false }), true, now)).toBe(CHECKIN_NEEDS_EMAIL);
    expect(firstCheckinHint(reader('09:00'), false, now)).toBeNull();
    expect(firstCheckinHint(null, true, now)).toBeNull();
  });
});
