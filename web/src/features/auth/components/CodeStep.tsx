import { type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { digitsOnly } from '../../profile/profileForm';
import { BackIcon } from '../../ui/components/BackIcon';
import { selectLoginEmail, selectLoginPending } from '../selectors';
import { codeSubmitted, loginStepBack } from '../slice';

const CODE_LENGTH = 6;

/** Step 1: the one-time code sent to the e-mail. */
export function CodeStep() {
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectLoginPending) !== 'none';
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) {
      setError('The code is the 6 digits from your e-mail');
      return;
    }
    setError(null);
    dispatch(codeSubmitted(code));
  };

  return (
    <>
      <div className="otp-sent">
        <button
          type="button"
          className="icon-button"
          aria-label="Back to the email step"
          onClick={() => dispatch(loginStepBack())}
        >
          <BackIcon />
        </button>
        <p>
          OTP sent to: <strong>{email}</strong>
        </p>
      </div>
      <form className="form" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor="login-code">Code from your email</label>
          <input
            id="login-code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-code-error' : undefined}
            onChange={(event) => setCode(digitsOnly(event.target.value, CODE_LENGTH))}
          />
          {error && (
            <p id="login-code-error" className="field-error" role="alert">
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
