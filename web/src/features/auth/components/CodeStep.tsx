import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectLoginEmail, selectLoginPending } from '../selectors';
import { codeSubmitted, loginStepBack } from '../slice';
import { CodeForm } from './CodeForm';

/** Step 1 of the login page: the one-time code sent to the e-mail. */
export function CodeStep() {
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectLoginPending) !== 'none';
  return (
    <CodeForm
      idPrefix="login"
      email={email}
      pending={pending}
      onBack={() => dispatch(loginStepBack())}
      onSubmit={(code) => dispatch(codeSubmitted(code))}
    />
  );
}
