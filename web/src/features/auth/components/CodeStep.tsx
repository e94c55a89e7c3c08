import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectLoginEmail, selectLoginPending } from '../selectors';
import { codeRequested, codeSubmitted, loginStepBack } from '../slice';
import { CodeForm } from './CodeForm';

/** Step 1 of the login page: the one-time code sent to the e-mail. */
export function CodeStep() {
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);
  const pending = useAppSelector(selectLoginPending) !== 'none';
  const serverError = useAppSelector((state) => state.auth.codeError);
  const rejections = useAppSelector((state) => state.auth.codeRejections);
  return (
    <CodeForm
      idPrefix="login"
      email={email}
      pending={pending}
      serverError={serverError}
      rejections={rejections}
      onBack={() => dispatch(loginStepBack())}
      onSubmit={(code) => dispatch(codeSubmitted(code))}
      onResend={() => dispatch(codeRequested(email))}
    />
  );
}
