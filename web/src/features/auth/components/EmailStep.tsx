import { type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { AboutLink } from '../../layout/components/AboutLink';
import { TermsLink } from '../../privacy/components/TermsLink';
import { selectSettings } from '../../settings/selectors';
import { emailProblem } from '../rules';
import { selectLoginEmail, selectLoginPending } from '../selectors';
import { codeRequested } from '../slice';
import { GoogleSignInButton } from './GoogleSignInButton';

/** Step 0: the e-mail that receives the one-time code. */
export function EmailStep() {
  const dispatch = useAppDispatch();
  const { googleauth } = useAppSelector(selectSettings);
  const pending = useAppSelector(selectLoginPending) !== 'none';
  const [email, setEmail] = useState(useAppSelector(selectLoginEmail));
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = emailProblem(email);
    setError(problem);
    if (!problem) dispatch(codeRequested(email.trim().toLowerCase()));
  };

  return (
    <>
      <form className="form" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor="login-email">Email</label>
          <input
            id="login-email"
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-email-error' : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
          {error && (
            <p id="login-email-error" className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="button button--block" disabled={pending}>
          Register/Login
        </button>
      </form>
      {googleauth && (
        <>
          <p className="divider">
            <span>or</span>
          </p>
          <GoogleSignInButton label="Sign in with Google" />
        </>
      )}
      <p className="login__about">
        <AboutLink />
        <TermsLink />
      </p>
    </>
  );
}
