import type { ProfileInfo, User } from '../../shared/contracts';
import { DEFAULT_NOTIFICATION_TIME } from './notificationTimes';
import { OTP_STAGE, type OtpStage } from './otpStage';

export const PHONE_MAX_DIGITS = 10;
export const PHONE_MIN_DIGITS = 6;
export const PHONE_OTP_MAX_DIGITS = 6;

export interface ProfileFormValues {
  firstname: string;
  lastname: string;
  time: string;
  enableEmail: boolean;
  enableWA: boolean;
  phone: string;
  topics: string[];
}

export type ProfileFormErrors = Partial<Record<'firstname' | 'lastname' | 'phone', string>>;

/** Keeps the digits of what was typed, at most `max` of them. */
export const digitsOnly = (raw: string, max: number): string => raw.replace(/\D/g, '').slice(0, max);

export function initialProfileForm(user: User): ProfileFormValues {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    time: user.notiinfo.time || DEFAULT_NOTIFICATION_TIME,
    enableEmail: user.enableEmail,
    enableWA: user.enableWA,
    phone: user.phone,
    topics: [...user.topics],
  };
}

export const toggleTopic = (topics: string[], id: string): string[] =>
  topics.includes(id) ? topics.filter((t) => t !== id) : [...topics, id];

export const VERIFY_WHATSAPP_FIRST = 'Please verify your WhatsApp number first';

/** reader.md §5: first and last name are required; WhatsApp reminders need a verified number. */
export function profileFormErrors(values: ProfileFormValues, stage: OtpStage): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  if (!values.firstname.trim()) errors.firstname = 'Please enter your first name';
  if (!values.lastname.trim()) errors.lastname = 'Please enter your last name';
  if (values.enableWA && stage !== OTP_STAGE.complete) errors.phone = VERIFY_WHATSAPP_FIRST;
  return errors;
}

export const phoneProblem = (phone: string): string | null =>
  phone.length < PHONE_MIN_DIGITS || phone.length > PHONE_MAX_DIGITS
    ? 'Please enter your WhatsApp number (digits only, at most 10)'
    : null;

/**
 * The number sent with the update. The server sets a number only by verifying it, so: the verified number when the
 * stage is complete; '' when the field was emptied (removes the number); otherwise the stored number, unchanged.
 */
export function phoneToSubmit(typed: string, stage: OtpStage, stored: string): string {
  if (stage === OTP_STAGE.complete) return typed;
  if (typed === '') return '';
  return stored;
}

/** The `info` of POST /api/user/update. */
export function buildProfileInfo(
  values: ProfileFormValues,
  user: Pick<User, 'email' | 'phone' | 'notiinfo'>,
  stage: OtpStage,
  timeZone: string | undefined,
): ProfileInfo {
  return {
    email: user.email,
    firstname: values.firstname.trim(),
    lastname: values.lastname.trim(),
    notiinfo: { time: values.time, active: user.notiinfo.active },
    phone: phoneToSubmit(values.phone, stage, user.phone),
    enableWA: values.enableWA,
    enableEmail: values.enableEmail,
    topics: values.topics,
    ...(timeZone ? { timeZone } : {}),
  };
}
