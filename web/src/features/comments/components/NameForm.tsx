import { type FormEvent, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { User } from '../../../shared/contracts';
import { type NameFormErrors, nameFormErrors } from '../commentRules';
import { selectComments } from '../selectors';
import { nameSubmitted } from '../slice';

/** reader.md §2/§5: a reader without first and last name gives both before commenting. */
export function NameForm({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const saving = useAppSelector(selectComments).savingName;
  const [values, setValues] = useState({ firstname: user.firstname, lastname: user.lastname });
  const [errors, setErrors] = useState<NameFormErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = nameFormErrors(values);
    setErrors(found);
    if (found.firstname) document.getElementById('comment-firstname')?.focus();
    else if (found.lastname) document.getElementById('comment-lastname')?.focus();
    else dispatch(nameSubmitted(values));
  };

  const field = (key: 'firstname' | 'lastname', label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={`comment-${key}`}>{label}</label>
      <input
        id={`comment-${key}`}
        type="text"
        autoComplete={autoComplete}
        maxLength={100}
        value={values[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `comment-${key}-error` : undefined}
        onChange={(event) => {
          setValues((current) => ({ ...current, [key]: event.target.value }));
          setErrors((current) => ({ ...current, [key]: undefined }));
        }}
      />
      {errors[key] && (
        <p id={`comment-${key}-error`} className="field-error" role="alert">
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <form className="form comments__name-form" noValidate onSubmit={submit}>
      <p className="hint">Add your first and last name to comment.</p>
      {field('firstname', 'First name', 'given-name')}
      {field('lastname', 'Last name', 'family-name')}
      <button type="submit" className="button" disabled={saving}>
        Save name
      </button>
    </form>
  );
}
