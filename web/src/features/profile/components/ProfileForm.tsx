import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { User } from '../../../shared/contracts';
import { browserTimeZone } from '../../../shared/timeZone';
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
      <div className="field">
        <label htmlFor="profile-firstname">First name</label>
        <input
          id="profile-firstname"
          type="text"
          autoComplete="given-name"
          required
          maxLength={100}
          value={values.firstname}
          aria-invalid={errors.firstname ? true : undefined}
          aria-describedby={errors.firstname ? 'profile-firstname-error' : undefined}
          onChange={(event) => set('firstname', event.target.value)}
        />
        {errors.firstname && (
          <p id="profile-firstname-error" className="field-error" role="alert">
            {errors.firstname}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="profile-lastname">Last name</label>
        <input
          id="profile-lastname"
          type="text"
          autoComplete="family-name"
          required
          maxLength={100}
          value={values.lastname}
          aria-invalid={errors.lastname ? true : undefined}
          aria-describedby={errors.lastname ? 'profile-lastname-error' : undefined}
          onChange={(event) => set('lastname', event.target.value)}
        />
        {errors.lastname && (
          <p id="profile-lastname-error" className="field-error" role="alert">
            {errors.lastname}
          </p>
        )}
      </div>
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
          {timeZone ? `In your time zone (${timeZone}).` : 'In your local time.'}
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
