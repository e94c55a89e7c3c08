import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useClearProblemsOnStep } from '../../../shared/notify';
import { browserTimeZone, reminderTimeHint } from '../../../shared/timeZone';
import { CodeForm } from '../../auth/components/CodeForm';
import { GoogleSignInButton } from '../../auth/components/GoogleSignInButton';
import { emailProblem } from '../../auth/rules';
import { selectUser } from '../../auth/selectors';
import { TopicPicker } from '../../profile/components/TopicPicker';
import { DEFAULT_NOTIFICATION_TIME, notificationTimeOptions } from '../../profile/notificationTimes';
import { toggleTopic } from '../../profile/profileForm';
import { selectTopics, selectTopicsStatus } from '../../profile/selectors';
import { profileFormOpened } from '../../profile/slice';
import { selectSettings } from '../../settings/selectors';
import { Switch } from '../../ui/components/Switch';
import { selectModal } from '../selectors';
import {
  modalCodeRequested,
  modalCodeSubmitted,
  modalProfileSubmitted,
  modalStepBack,
  signInModalClosed,
} from '../slice';
import { ModalDialog } from './ModalDialog';

const TIME_OPTIONS = notificationTimeOptions();

function EmailStep() {
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectSettings);
  const modal = useAppSelector(selectModal);
  const [email, setEmail] = useState(modal.email);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = emailProblem(email);
    setError(problem);
    if (!problem) dispatch(modalCodeRequested(email.trim().toLowerCase()));
  };

  return (
    <>
      <form className="form" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor="modal-email">Email</label>
          <input
            id="modal-email"
            type="email"
            autoComplete="email"
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'modal-email-error' : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
          {error && (
            <p id="modal-email-error" className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="button button--block" disabled={modal.pending !== 'none'}>
          {settings.authmodalsigninbutton}
        </button>
      </form>
      {settings.googleauth && (
        <>
          <p className="divider">
            <span>or</span>
          </p>
          <GoogleSignInButton label={settings.authmodalgooglebutton} />
        </>
      )}
    </>
  );
}

function CodeStep() {
  const dispatch = useAppDispatch();
  const modal = useAppSelector(selectModal);
  return (
    <CodeForm
      idPrefix="modal"
      email={modal.email}
      pending={modal.pending !== 'none'}
      serverError={modal.codeError}
      rejections={modal.codeRejections}
      onBack={() => dispatch(modalStepBack())}
      onSubmit={(code) => dispatch(modalCodeSubmitted(code))}
      onResend={() => dispatch(modalCodeRequested(modal.email))}
    />
  );
}

/**
 * Step 2 of the modal (headed by emailupdateheadline): the e-mail reminder time, whether e-mail reminders are on, and (our
 * addition) the topics the reader's posts come from.
 */
function ReminderStep() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const pending = useAppSelector(selectModal).pending !== 'none';
  const topics = useAppSelector(selectTopics);
  const topicsStatus = useAppSelector(selectTopicsStatus);
  const [time, setTime] = useState(user?.notiinfo.time || DEFAULT_NOTIFICATION_TIME);
  const [enableEmail, setEnableEmail] = useState(user?.enableEmail ?? true);
  const [picked, setPicked] = useState<string[]>(user?.topics ?? []);
  const timeZone = useMemo(browserTimeZone, []);

  useEffect(() => {
    if (user) dispatch(profileFormOpened({ enableWA: user.enableWA, phone: user.phone ?? '' }));
  }, [dispatch, user]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(modalProfileSubmitted({ time, enableEmail, topics: picked }));
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      <div className="field">
        <label htmlFor="modal-time">Email notification time</label>
        <select
          id="modal-time"
          value={time}
          aria-describedby="modal-time-hint"
          onChange={(event) => setTime(event.target.value)}
        >
          {TIME_OPTIONS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <p id="modal-time-hint" className="hint">
          {reminderTimeHint(time, timeZone)}
        </p>
      </div>
      <Switch
        id="modal-email-on"
        label="Email notifications"
        checked={enableEmail}
        onChange={setEnableEmail}
      />
      <TopicPicker
        topics={topics}
        status={topicsStatus}
        selected={picked}
        onToggle={(id) => setPicked((current) => toggleTopic(current, id))}
      />
      <button type="submit" className="button button--block" disabled={pending}>
        Continue
      </button>
    </form>
  );
}

/** reader.md §2 'Sign-in modal': the login's steps without leaving the page. */
export function SignInModal() {
  const dispatch = useAppDispatch();
  const modal = useAppSelector(selectModal);
  const { authmodalheading, emailupdateheadline } = useAppSelector(selectSettings);
  const close = () => dispatch(signInModalClosed());
  useClearProblemsOnStep(modal.show ? modal.step : 'closed');

  return (
    <ModalDialog open={modal.show} onClose={close} labelledBy="signin-modal-heading" className="signin-modal">
      <button type="button" className="modal__close" aria-label="Close" onClick={close}>
        <span aria-hidden="true">×</span>
      </button>
      <h2 id="signin-modal-heading" className="modal__title">
        {/* Step 2 comes after the sign-in: it has its own heading (the profile step's, emailupdateheadline). */}
        {modal.step === 2 ? emailupdateheadline : authmodalheading}
      </h2>
      {modal.step === 0 && <EmailStep />}
      {modal.step === 1 && <CodeStep />}
      {modal.step === 2 && <ReminderStep />}
    </ModalDialog>
  );
}
