/** reader.md §4: the WhatsApp number verification stages, numbered as the otpTransaction call numbers them. */
export const OTP_STAGE = { notSent: 1, sent: 2, resend: 3, complete: 4 } as const;
export type OtpStage = (typeof OTP_STAGE)[keyof typeof OTP_STAGE];

export type OtpEvent =
  /** The first otpTransaction call (stage 1) succeeded: a code is on its way. */
  | { type: 'codeSent' }
  /** The code was accepted (stage 2). */
  | { type: 'codeVerified' }
  /** 'Change WhatsApp number?' */
  | { type: 'changeNumber' }
  /** The number was edited after a code was sent: that code is for the old number. */
  | { type: 'numberEdited' };

/** Complete when WhatsApp is on and a number exists (the server only keeps verified numbers), else notSent. */
export const initialOtpStage = (user: { enableWA: boolean; phone: string }): OtpStage =>
  user.enableWA && user.phone !== '' ? OTP_STAGE.complete : OTP_STAGE.notSent;

export function nextOtpStage(stage: OtpStage, event: OtpEvent): OtpStage {
  switch (event.type) {
    case 'codeSent':
      return stage === OTP_STAGE.notSent || stage === OTP_STAGE.resend ? OTP_STAGE.sent : stage;
    case 'codeVerified':
      return stage === OTP_STAGE.sent ? OTP_STAGE.complete : stage;
    case 'changeNumber':
      return stage === OTP_STAGE.complete ? OTP_STAGE.notSent : stage;
    case 'numberEdited':
      return stage === OTP_STAGE.sent ? OTP_STAGE.notSent : stage;
  }
}
