import { MINIMUM_AGE_MESSAGE } from '@nudge/contracts/privacy-rules';
import type { ProfileInfo, User } from '../../shared/contracts';
import { DEFAULT_NOTIFICATION_TIME } from './notificationTimes';
import { OTP_STAGE, type OtpStage } from './otpStage';

/** An Indian number without its country code (reader.md §5: digits only, at most 10). */
export const PHONE_MAX_DIGITS = 10;
export const PHONE_MIN_DIGITS = 6;
/** E.164 allows 15 digits after the '+'. */
export const PHONE_MAX_INTERNATIONAL_DIGITS = 15;
export const PHONE_PROBLEM =
  'Please enter a valid WhatsApp number: 10 digits for India, or + and the country code for another country';
export const PHONE_OTP_MAX_DIGITS = 6;

export interface ProfileFormValues {
  firstname: string;
  lastname: string;
  time: string;
  enableEmail: boolean;
  enableWA: boolean;
  phone: string;
  topics: string[];
  /** Sign-up only: the reader confirmed they are at least 16. */
  ageConfirmed: boolean;
}

export type ProfileFormErrors = Partial<Record<'firstname' | 'lastname' | 'phone' | 'ageConfirmed', string>>;

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
    ageConfirmed: false,
  };
}

export const toggleTopic = (topics: string[], id: string): string[] =>
  topics.includes(id) ? topics.filter((t) => t !== id) : [...topics, id];

export const VERIFY_WHATSAPP_FIRST = 'Please verify your WhatsApp number first';

/**
 * reader.md §5: first and last name are required; WhatsApp reminders need a verified number. §9: a new reader
 * (`signingUp`, the profile not completed yet) confirms they are at least 16.
 */
export function profileFormErrors(
  values: ProfileFormValues,
  stage: OtpStage,
  signingUp = false,
): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  if (signingUp && !values.ageConfirmed) errors.ageConfirmed = MINIMUM_AGE_MESSAGE;
  if (!values.firstname.trim()) errors.firstname = 'Please enter your first name';
  if (!values.lastname.trim()) errors.lastname = 'Please enter your last name';
  if (values.enableWA && stage !== OTP_STAGE.complete) errors.phone = VERIFY_WHATSAPP_FIRST;
  return errors;
}

/**
 * What the WhatsApp field keeps of what is typed or pasted (reader.md §5: digits only): a leading '+' for a country
 * code, digits, and single spaces between groups; letters, dashes and brackets are dropped as they are typed. The
 * server stores the number as E.164 after checking it with libphonenumber-js.
 */
export const phoneInput = (raw: string): string => {
  const plus = raw.trimStart().startsWith('+');
  const kept = raw
    .replace(/[^\d\s]/g, '')
    .replace(/\s+/g, ' ')
    .trimStart()
    .slice(0, 20);
  return (plus ? '+' : '') + kept;
};

/**
 * A first check before a code is sent: an Indian number of 6 to 10 digits without a country code, or '+' and a
 * country code with up to 15 digits in all. Whether the number exists in its country is the server's check.
 */
export function phoneProblem(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').length;
  if (phone.trim().startsWith('+'))
    return digits >= 8 && digits <= PHONE_MAX_INTERNATIONAL_DIGITS ? null : PHONE_PROBLEM;
  return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS ? null : PHONE_PROBLEM;
}

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
  user: Pick<User, 'email' | 'phone' | 'notiinfo' | 'verified'>,
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
    ...(!user.verified && values.ageConfirmed ? { ageConfirmed: true } : {}),
  };
}
