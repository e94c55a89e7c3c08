import { MINIMUM_AGE } from '@nudge/contracts/privacy-rules';
import { Link } from 'react-router-dom';

/**
 * Sign-up's "I am at least 16" (reader.md §9): a new reader ticks it to complete their profile; the server refuses
 * the sign-up without it too.
 */
export function AgeConfirmation({
  id,
  checked,
  error,
  onChange,
}: {
  id: string;
  checked: boolean;
  error: string | undefined;
  onChange(checked: boolean): void;
}) {
  return (
    <div className="field age-confirmation">
      <div className="age-confirmation__row">
        <input
          id={id}
          type="checkbox"
          required
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>
          I confirm I am at least {MINIMUM_AGE} years old and accept the{' '}
          <Link to="/terms" target="_blank">
            Terms and Privacy
          </Link>
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
