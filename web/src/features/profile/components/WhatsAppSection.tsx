import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { OTP_STAGE } from '../otpStage';
import { digitsOnly, PHONE_OTP_MAX_DIGITS, phoneInput, phoneProblem } from '../profileForm';
import { selectOtpError, selectOtpPending, selectOtpStage } from '../selectors';
import {
  otpCodeRequested,
  otpCodeSubmitted,
  whatsAppNumberChangeRequested,
  whatsAppNumberEdited,
} from '../slice';

/** The WhatsApp number and its verification: send a code (notSent), enter it (sent), verified (complete). */
export function WhatsAppSection({
  phone,
  onPhoneChange,
  error,
}: {
  phone: string;
  onPhoneChange: (phone: string) => void;
  error?: string;
}) {
  const dispatch = useAppDispatch();
  const stage = useAppSelector(selectOtpStage);
  const pending = useAppSelector(selectOtpPending);
  const [code, setCode] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const serverError = useAppSelector(selectOtpError);
  const codeField = useRef<HTMLInputElement>(null);
  // A refused code is marked at its field, cleared and focused for the next try (as the e-mail code step does).
  const codeError = serverError?.stage === OTP_STAGE.sent ? serverError.message : null;
  const shownError =
    localError ?? (serverError?.stage === OTP_STAGE.notSent ? serverError.message : null) ?? error;
  useEffect(() => {
    if (!codeError) return;
    setCode('');
    codeField.current?.focus();
  }, [codeError]);

  const sendCode = () => {
    const problem = phoneProblem(phone);
    setLocalError(problem);
    if (!problem) dispatch(otpCodeRequested(phone));
  };
  const submitCode = () => {
    if (code.length === 0) {
      setLocalError('Please enter the code sent to your WhatsApp number');
      return;
    }
    setLocalError(null);
    dispatch(otpCodeSubmitted({ phone, otp: code }));
  };

  if (stage === OTP_STAGE.complete)
    return (
      <div className="whatsapp">
        <p className="whatsapp__verified">
          WhatsApp number <strong>{phone}</strong> <span className="badge badge--ok">Verified</span>
        </p>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setCode('');
            dispatch(whatsAppNumberChangeRequested());
          }}
        >
          Change WhatsApp number?
        </button>
      </div>
    );

  return (
    <div className="whatsapp">
      <div className="field">
        <label htmlFor="profile-phone">WhatsApp number</label>
        <div className="field__row">
          <input
            id="profile-phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={phone}
            aria-invalid={shownError ? true : undefined}
            aria-describedby={shownError ? 'profile-phone-error' : 'profile-phone-hint'}
            onChange={(event) => {
              onPhoneChange(phoneInput(event.target.value));
              if (stage === OTP_STAGE.sent) {
                setCode('');
                dispatch(whatsAppNumberEdited());
              }
            }}
          />
          {stage === OTP_STAGE.notSent && (
            <button type="button" className="button button--secondary" disabled={pending} onClick={sendCode}>
              Send OTP
            </button>
          )}
        </div>
        <p id="profile-phone-hint" className="hint">
          10 digits for India, or + and the country code (for example +44 7911 123456).
        </p>
      </div>
      {stage === OTP_STAGE.sent && (
        <div className="field">
          <label htmlFor="profile-phone-otp">Code sent to your WhatsApp</label>
          <div className="field__row">
            <input
              id="profile-phone-otp"
              ref={codeField}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-invalid={codeError ? true : undefined}
              aria-describedby={codeError ? 'profile-phone-otp-error' : undefined}
              value={code}
              onChange={(event) => setCode(digitsOnly(event.target.value, PHONE_OTP_MAX_DIGITS))}
            />
            <button
              type="button"
              className="button button--secondary"
              disabled={pending}
              onClick={submitCode}
            >
              Verify
            </button>
          </div>
          {codeError && (
            <p id="profile-phone-otp-error" className="field-error" role="alert">
              {codeError}
            </p>
          )}
        </div>
      )}
      {shownError && (
        <p id="profile-phone-error" className="field-error" role="alert">
          {shownError}
        </p>
      )}
    </div>
  );
}
