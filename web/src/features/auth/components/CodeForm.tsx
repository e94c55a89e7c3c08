import { type FormEvent, useState } from 'react';
import { digitsOnly } from '../../profile/profileForm';
import { ChevronIcon } from '../../ui/components/ChevronIcon';

const CODE_LENGTH = 6;

interface CodeFormProps {
  /** Prefix of the element ids, unique per screen (the login page and the sign-in modal can both be mounted). */
  idPrefix: string;
  email: string;
  pending: boolean;
  onBack(): void;
  onSubmit(code: string): void;
}

/** The code step of signing in (reader.md §2 step 1): 'OTP sent to:', a back icon, the code and 'Continue'. */
export function CodeForm({ idPrefix, email, pending, onBack, onSubmit }: CodeFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = `${idPrefix}-code`;
  const errorId = `${idPrefix}-code-error`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setError('The code is the 6 digits from your e-mail');
      return;
    }
    setError(null);
    onSubmit(code);
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
            id={inputId}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setCode(digitsOnly(event.target.value, CODE_LENGTH))}
          />
          {error && (
            <p id={errorId} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="button button--block" disabled={pending}>
          Continue
        </button>
      </form>
    </>
  );
}
