import { describe, expect, it } from 'vitest';
import { initialOtpStage, nextOtpStage, OTP_STAGE } from './otpStage';

const { notSent, sent, resend, complete } = OTP_STAGE;

describe('WhatsApp OTP stages', () => {
  it('use the numbers of the otpTransaction call', () => {
    expect(OTP_STAGE).toEqual({ notSent: 1, sent: 2, resend: 3, complete: 4 });
  });

  it('start complete when WhatsApp is on and a number exists, else notSent', () => {
    expect(initialOtpStage({ enableWA: true, phone: '9876543210' })).toBe(complete);
    expect(initialOtpStage({ enableWA: false, phone: '9876543210' })).toBe(notSent);
    expect(initialOtpStage({ enableWA: true, phone: '' })).toBe(notSent);
  });

  it('go notSent -> sent -> complete -> notSent', () => {
    const afterSend = nextOtpStage(notSent, { type: 'codeSent' });
    expect(afterSend).toBe(sent);
    const afterVerify = nextOtpStage(afterSend, { type: 'codeVerified' });
    expect(afterVerify).toBe(complete);
    expect(nextOtpStage(afterVerify, { type: 'changeNumber' })).toBe(notSent);
  });

  it('go back to notSent when the number is edited after a code was sent', () => {
    expect(nextOtpStage(sent, { type: 'numberEdited' })).toBe(notSent);
    expect(nextOtpStage(complete, { type: 'numberEdited' })).toBe(complete);
  });

  it('ignore events that do not apply to the current stage', () => {
    expect(nextOtpStage(notSent, { type: 'codeVerified' })).toBe(notSent);
    expect(nextOtpStage(complete, { type: 'codeSent' })).toBe(complete);
    expect(nextOtpStage(sent, { type: 'changeNumber' })).toBe(sent);
    expect(nextOtpStage(notSent, { type: 'changeNumber' })).toBe(notSent);
    expect(nextOtpStage(resend, { type: 'codeSent' })).toBe(sent);
  });
});
