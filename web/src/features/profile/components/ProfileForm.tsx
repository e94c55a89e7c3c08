import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { User } from '../../../shared/contracts';
import { browserTimeZone, reminderTimeHint } from '../../../shared/timeZone';
import { Switch } from '../../ui/components/Switch';
import { notificationTimeOptions } from '../notificationTimes';
import {
  buildProfileInfo,
  initialProfileForm,
  type ProfileFormErrors,
  type ProfileFormValues,
  profileFormErrors,
  toggleTopic,
} from '../profileForm';
import { selectOtpStage, selectProfileSaving, selectTopics, selectTopicsStatus } from '../selectors';
import { profileFormOpened, profileUpdateRequested } from '../slice';
import { TopicPicker } from './TopicPicker';
import { WhatsAppSection } from './WhatsAppSection';

const TIME_OPTIONS = notificationTimeOptions();

/** The profile form of /setting and of the login's step 2 (reader.md §2). */
export function ProfileForm({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const topics = useAppSelector(selectTopics);
  const topicsStatus = useAppSelector(selectTopicsStatus);
  const stage = useAppSelector(selectOtpStage);
  const saving = useAppSelector(selectProfileSaving);
  const [values, setValues] = useState<ProfileFormValues>(() => initialProfileForm(user));
  const [errors, setErrors] = useState<ProfileFormErrors>({});
  const timeZone = useMemo(browserTimeZone, []);

  // The form opens once per user; later changes of the stored user (a verified number) must not reset it.
  useEffect(() => {
    dispatch(profileFormOpened({ enableWA: user.enableWA, phone: user.phone }));
  }, [dispatch, user._id]);

  const set = <K extends keyof ProfileFormValues>(key: K, value: ProfileFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    // A field's error goes once the field is edited; the rest wait for the next submit.
    const field = key === 'enableWA' ? 'phone' : key;
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field as keyof ProfileFormErrors]: _cleared, ...rest } = current;
      return rest;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = profileFormErrors(values, stage);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    dispatch(profileUpdateRequested(buildProfileInfo(values, user, stage, timeZone)));
  };

  return (
    <form className="form profile-form" noValidate onSubmit={submit}>
      <div className="field">
        <label htmlFor="profile-email">Email</label>
        <input id="profile-email" type="email" value={user.email} readOnly aria-readonly="true" />
      </div>
      <NameField
        name="firstname"
        label="First name"
        autoComplete="given-name"
        value={values.firstname}
        error={errors.firstname}
        onChange={(value) => set('firstname', value)}
      />
      <NameField
        name="lastname"
        label="Last name"
        autoComplete="family-name"
        value={values.lastname}
        error={errors.lastname}
        onChange={(value) => set('lastname', value)}
      />
      <div className="field">
        <label htmlFor="profile-time">Daily reminder time</label>
        <select
          id="profile-time"
          value={values.time}
          aria-describedby="profile-time-hint"
          onChange={(event) => set('time', event.target.value)}
        >
          {TIME_OPTIONS.map((time) => (
            <option key={time} value={time}>
              {time}
            </option>
          ))}
        </select>
        <p id="profile-time-hint" className="hint">
          {reminderTimeHint(values.time, timeZone)}
        </p>
      </div>
      <Switch
        id="profile-enable-email"
        label="Email notifications"
        checked={values.enableEmail}
        onChange={(checked) => set('enableEmail', checked)}
      />
      <Switch
        id="profile-enable-whatsapp"
        label="WhatsApp notifications"
        checked={values.enableWA}
        onChange={(checked) => set('enableWA', checked)}
      />
      {values.enableWA && (
        <WhatsAppSection
          phone={values.phone}
          onPhoneChange={(phone) => set('phone', phone)}
          error={errors.phone}
        />
      )}
      <TopicPicker
        topics={topics}
        status={topicsStatus}
        selected={values.topics}
        onToggle={(id) => set('topics', toggleTopic(values.topics, id))}
      />
      <button type="submit" className="button button--block" disabled={saving}>
        {user.verified ? 'Update' : 'Continue'}
      </button>
    </form>
  );
}

interface NameFieldProps {
  name: 'firstname' | 'lastname';
  label: string;
  autoComplete: string;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
}

/** A required name input with its error line (reader.md §5: first and last name required). */
function NameField({ name, label, autoComplete, value, error, onChange }: NameFieldProps) {
  const id = `profile-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        autoComplete={autoComplete}
        required
        maxLength={100}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
