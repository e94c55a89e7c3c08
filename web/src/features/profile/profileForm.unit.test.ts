import { describe, expect, it } from 'vitest';
import type { User } from '../../shared/contracts';
import { OTP_STAGE } from './otpStage';
import {
  buildProfileInfo,
  digitsOnly,
  initialProfileForm,
  phoneInput,
  phoneProblem,
  phoneToSubmit,
  profileFormErrors,
  toggleTopic,
  VERIFY_WHATSAPP_FIRST,
} from './profileForm';

const user: User = {
  _id: 'a'.repeat(24),
  email: 'reader@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  phone: '9876543210',
  enableWA: true,
  enableEmail: true,
  notiinfo: { time: '07:30', active: false },
  topics: ['b'.repeat(24)],
  verified: true,
  role: 'user',
  type: 0,
  notification_time: '07:30',
  notification_status: 'active',
  notification_type: 'both',
  category: '',
  timeZone: 'UTC',
  emails_sent: 0,
  emails_open: 0,
  email_open_rate: 0,
  last_email_open: null,
  last_app_login: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('profile form', () => {
  it('starts from the user', () => {
    expect(initialProfileForm(user)).toEqual({
      firstname: 'Ada',
      lastname: 'Lovelace',
      time: '07:30',
      enableEmail: true,
      enableWA: true,
      phone: '9876543210',
      topics: ['b'.repeat(24)],
      ageConfirmed: false,
    });
    expect(initialProfileForm({ ...user, notiinfo: { time: '', active: true } }).time).toBe('08:00');
  });

  it('requires first and last name, and a verified number for WhatsApp', () => {
    const values = { ...initialProfileForm(user), firstname: ' ', lastname: '' };
    expect(profileFormErrors(values, OTP_STAGE.complete)).toEqual({
      firstname: 'Please enter your first name',
      lastname: 'Please enter your last name',
    });
    expect(profileFormErrors(initialProfileForm(user), OTP_STAGE.sent)).toEqual({
      phone: VERIFY_WHATSAPP_FIRST,
    });
    expect(profileFormErrors({ ...initialProfileForm(user), enableWA: false }, OTP_STAGE.notSent)).toEqual(
      {},
    );
  });

  it('keeps digits only, at most the limit', () => {
    expect(digitsOnly('+91 98765-43210 99', 10)).toBe('9198765432');
    expect(digitsOnly('12ab34', 6)).toBe('1234');
    expect(digitsOnly('1234567', 6)).toBe('123456');
  });

  it('checks the WhatsApp number length before sending a code', () => {
    expect(phoneProblem('12345')).not.toBeNull();
    expect(phoneProblem('123456')).toBeNull();
    expect(phoneProblem('9876543210')).toBeNull();
    expect(phoneProblem('98765432101')).not.toBeNull();
    // With its country code an international number is fine (the server keeps it as E.164).
    expect(phoneProblem('+1 (415) 555-0132')).toBeNull();
    expect(phoneProblem('+44 12')).not.toBeNull();
    expect(phoneInput('+1 (415) 555-0132 ext')).toBe('+1 415 5550132 ');
    expect(phoneInput('98a76+5')).toBe('98765');
    expect(phoneInput('98765-43210abc')).toBe('9876543210');
  });

  it('sends a number only once verified; an emptied field removes it', () => {
    expect(phoneToSubmit('1112223334', OTP_STAGE.complete, '9876543210')).toBe('1112223334');
    expect(phoneToSubmit('1112223334', OTP_STAGE.notSent, '9876543210')).toBe('9876543210');
    expect(phoneToSubmit('1112223334', OTP_STAGE.sent, '')).toBe('');
    expect(phoneToSubmit('', OTP_STAGE.notSent, '9876543210')).toBe('');
  });

  it('a new reader confirms they are at least 16 before the profile is sent; the answer goes with it', () => {
    const values = initialProfileForm(user);
    expect(profileFormErrors(values, OTP_STAGE.complete, true)).toEqual({
      ageConfirmed: 'You must be at least 16 to create an account',
    });
    expect(profileFormErrors({ ...values, ageConfirmed: true }, OTP_STAGE.complete, true)).toEqual({});
    const newReader = { ...user, verified: false };
    expect(
      buildProfileInfo({ ...values, ageConfirmed: true }, newReader, OTP_STAGE.complete, undefined),
    ).toMatchObject({
      ageConfirmed: true,
    });
    expect(buildProfileInfo(values, user, OTP_STAGE.complete, undefined)).not.toHaveProperty('ageConfirmed');
  });

  it('toggles topics freely', () => {
    expect(toggleTopic(['a', 'b'], 'a')).toEqual(['b']);
    expect(toggleTopic(['b'], 'a')).toEqual(['b', 'a']);
  });

  it('builds the update info with the time zone and the current notification status', () => {
    const values = { ...initialProfileForm(user), firstname: ' Ada ', time: '21:45', enableEmail: false };
    expect(buildProfileInfo(values, user, OTP_STAGE.complete, 'Europe/London')).toEqual({
      email: 'reader@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
      notiinfo: { time: '21:45', active: false },
      phone: '9876543210',
      enableWA: true,
      enableEmail: false,
      topics: ['b'.repeat(24)],
      timeZone: 'Europe/London',
    });
    expect(buildProfileInfo(values, user, OTP_STAGE.complete, undefined)).not.toHaveProperty('timeZone');
  });
});
