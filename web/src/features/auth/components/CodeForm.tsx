import { type FormEvent, useEffect, useRef, useState } from 'react';
import { digitsOnly } from '../../profile/profileForm';
import { ChevronIcon } from '../../ui/components/ChevronIcon';

const CODE_LENGTH = 6;
/**
 * Seconds before 'Resend code' may be used again. The server allows a few codes per address per hour
 * (AUTH_CODE_LIMIT_PER_HOUR, 5 by default), so a minute between requests keeps a reader who waits well inside it;
 * a refusal past the limit shows the server's words next to the field.
 */
export const RESEND_AFTER_S = 60;

interface CodeFormProps {
  /** Prefix of the element ids, unique per screen (the login page and the sign-in modal can both be mounted). */
  idPrefix: string;
  email: string;
  pending: boolean;
  /** The server's reason the last code (or resend) was refused, shown under the field. */
  serverError?: string;
  /** Refused codes so far: a change clears the field and puts the focus back in it. */
  rejections?: number;
  onBack(): void;
  onSubmit(code: string): void;
  onResend(): void;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * The code step of signing in (reader.md §2 step 1): 'OTP sent to:', a back icon, the code and 'Continue'. The
 * code field takes the focus; 'Resend code' counts down first; errors stay next to the field; a wrong code
 * clears it.
 */
export function CodeForm({
  idPrefix,
  email,
  pending,
  serverError = '',
  rejections = 0,
  onBack,
  onSubmit,
  onResend,
}: CodeFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The countdown runs to a deadline (a late or throttled timer never makes it slower than the clock).
  const [resendAt, setResendAt] = useState(() => Date.now() + RESEND_AFTER_S * 1000);
  const [now, setNow] = useState(() => Date.now());
  const wait = Math.max(0, Math.ceil((resendAt - now) / 1000));
  const input = useRef<HTMLInputElement>(null);
  const inputId = `${idPrefix}-code`;
  const errorId = `${idPrefix}-code-error`;
  const shownError = error ?? (serverError || null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  useEffect(() => {
    if (rejections === 0) return;
    setCode('');
    input.current?.focus();
  }, [rejections]);

  useEffect(() => {
    if (resendAt <= Date.now()) return;
    const timer = window.setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= resendAt) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [resendAt]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setError('The code is the 6 digits from your e-mail');
      input.current?.focus();
      return;
    }
    setError(null);
    onSubmit(code);
  };

  const resend = () => {
    setError(null);
    setCode('');
    const at = Date.now();
    setNow(at);
    setResendAt(at + RESEND_AFTER_S * 1000);
    onResend();
    input.current?.focus();
  };

  return (
    <>
      <div className="otp-sent">
        <button type="button" className="icon-button" aria-label="Back to the email step" onClick={onBack}>
          <ChevronIcon />
        </button>
        <p>
          OTP sent to: <strong>{email}</strong>
        </p>
      </div>
      <form className="form" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor={inputId}>Code from your email</label>
          <input
            ref={input}
            id={inputId}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            aria-invalid={shownError ? true : undefined}
            aria-describedby={shownError ? errorId : undefined}
            onChange={(event) => {
              setError(null);
              setCode(digitsOnly(event.target.value, CODE_LENGTH));
            }}
          />
          {shownError && (
            <p id={errorId} className="field-error" role="alert">
              {shownError}
            </p>
          )}
        </div>
        <button type="submit" className="button button--block" disabled={pending}>
          Continue
        </button>
      </form>
      <p className="code-resend">
        {wait > 0 ? (
          <span className="muted" aria-live="off">
            Didn't get it? You can ask for a new code in {clock(wait)}
          </span>
        ) : (
          <button type="button" className="link-button" disabled={pending} onClick={resend}>
            Resend code
          </button>
        )}
      </p>
    </>
  );
}
