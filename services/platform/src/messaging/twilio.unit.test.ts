import { describe, expect, it } from 'vitest';
import { e164 } from './twilio';

describe('WhatsApp numbers handed to Twilio', () => {
  it('reads a 10-digit number stored before E.164 as Indian, and keeps an E.164 number as it is', () => {
    expect(e164('9876543210')).toBe('+919876543210');
    expect(e164('+447911123456')).toBe('+447911123456');
    expect(e164('+919876543210')).toBe('+919876543210');
  });
});
