import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

let auth: AuthHarness;
let token: string;
const email = 'profile@example.com';
const topicA = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const topicB = 'bbbbbbbbbbbbbbbbbbbbbbbb';

beforeAll(async () => {
  auth = await startAuth();
  ({ token } = await auth.signIn(email));
});
afterAll(() => auth.close());

describe('profile', () => {
  it("the profile form's first submit makes the user verified (reader.md: 'Continue' until then); updatename does not", async () => {
    const fresh = await auth.signIn('fresh@example.com');
    expect(fresh.user.verified).toBe(false);
    const named = await auth.post('/api/user/updatename', {
      token: fresh.token,
      firstname: 'Fre',
      lastname: 'Sh',
    });
    expect(named.body.user.verified).toBe(false);
    const saved = await auth.post('/api/user/update', {
      token: fresh.token,
      email: 'fresh@example.com',
      info: { ageConfirmed: true, firstname: 'Fre' },
    });
    expect(saved.body.user.verified).toBe(true);
    const again = await auth.signIn('fresh@example.com');
    expect(again.user.verified).toBe(true);
  });

  it('sign-up is refused to a reader who does not confirm they are at least 16, and records nothing', async () => {
    const young = await auth.signIn('young@example.com');
    for (const info of [
      { firstname: 'Yo', lastname: 'Ung' },
      { ageConfirmed: false, firstname: 'Yo' },
    ]) {
      const refused = await auth.post('/api/user/update', {
        token: young.token,
        email: 'young@example.com',
        info,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('You must be at least 16 to create an account');
    }
    const after = await auth.signIn('young@example.com');
    expect(after.user.verified).toBe(false);
    expect(after.user.firstname).toBe('');
    const confirmed = await auth.post('/api/user/update', {
      token: young.token,
      email: 'young@example.com',
      info: { ageConfirmed: true, firstname: 'Yo' },
    });
    expect(confirmed.body.user.verified).toBe(true);
    // A verified reader's later updates need no confirmation again.
    const later = await auth.post('/api/user/update', {
      token: young.token,
      email: 'young@example.com',
      info: { lastname: 'Ung' },
    });
    expect(later.status).toBe(200);
  });

  it('update saves names, notification time, toggles and topics', async () => {
    const res = await auth.post('/api/user/update', {
      token,
      email,
      info: {
        ageConfirmed: true,
        email,
        firstname: 'Asha',
        lastname: 'Rao',
        notiinfo: { time: '07:45', active: true },
        enableEmail: true,
        enableWA: false,
        phone: '',
        topics: [topicA, topicB],
        timeZone: 'Europe/London',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      firstname: 'Asha',
      lastname: 'Rao',
      notiinfo: { time: '07:45', active: true },
      notification_time: '07:45',
      topics: [topicA, topicB],
      timeZone: 'Europe/London',
      notification_type: 'email',
    });
    const me = await auth.post('/api/user/isauth', { token });
    expect(me.body.user).toMatchObject({ firstname: 'Asha', topics: [topicA, topicB] });
  });

  it('update needs a token, and only changes your own profile', async () => {
    const anon = await auth.post('/api/user/update', { email, info: { ageConfirmed: true, firstname: 'X' } });
    expect(anon.status).toBe(401);
    const other = await auth.signIn('other@example.com');
    const res = await auth.post('/api/user/update', {
      token: other.token,
      email,
      info: { ageConfirmed: true, firstname: 'Mallory' },
    });
    expect(res.status).toBe(403);
    expect((await auth.post('/api/user/isauth', { token })).body.user.firstname).toBe('Asha');
  });

  it('updatename sets both names and answers with the spec text', async () => {
    const res = await auth.post('/api/user/updatename', { token, firstname: 'Asha', lastname: 'Kumar' });
    expect(res.body).toMatchObject({
      status: true,
      message: 'Name updated successfully',
      user: { lastname: 'Kumar' },
    });
    const empty = await auth.post('/api/user/updatename', { token, firstname: ' ', lastname: 'Kumar' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ status: false, message: 'Please enter firstname' });
    const emptyLast = await auth.post('/api/user/updatename', { token, firstname: 'Asha', lastname: '' });
    expect(emptyLast.body).toEqual({ status: false, message: 'Please enter firstname' });
  });

  it('WhatsApp number: code by WhatsApp, then verified; enabling WhatsApp needs a verified number', async () => {
    const refused = await auth.post('/api/user/update', {
      token,
      email,
      info: { ageConfirmed: true, enableWA: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Please verify your WhatsApp number first');

    const sent = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '9876543210',
      stage: 1,
      otp: 0,
    });
    expect(sent.body).toEqual({ status: true, message: 'OTP sent to your WhatsApp number' });
    const [wa] = await auth.outbox.list();
    // A number without its country code is Indian, and goes out (and is kept) in E.164.
    expect(wa).toMatchObject({ channel: 'whatsapp', to: '+919876543210' });

    const wrong = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '9876543210',
      stage: 2,
      otp: '000001' === (await auth.lastCode('+919876543210')) ? '000002' : '000001',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.status).toBe(false);

    const ok = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '9876543210',
      stage: 2,
      otp: await auth.lastCode('+919876543210'),
    });
    expect(ok.body).toEqual({ status: true, message: 'WhatsApp number verified successfully' });
    const me = await auth.post('/api/user/isauth', { token });
    expect(me.body.user).toMatchObject({ phone: '+919876543210', enableWA: true, notification_type: 'both' });
    // The same number written the international way is the same number.
    const same = await auth.post('/api/user/update', {
      token,
      email,
      info: { ageConfirmed: true, phone: '+91 98765 43210' },
    });
    expect(same.status).toBe(200);

    const other = await auth.post('/api/user/update', {
      token,
      email,
      info: { ageConfirmed: true, phone: '9123456789' },
    });
    expect(other.body.message).toBe('Please verify your WhatsApp number first');
  });

  it('an international number with its country code is kept in E.164; an invalid one is refused', async () => {
    const sent = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '+1 (415) 555-0132',
      stage: 1,
      otp: 0,
    });
    expect(sent.body).toEqual({ status: true, message: 'OTP sent to your WhatsApp number' });
    const ok = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '+14155550132',
      stage: 2,
      otp: await auth.lastCode('+14155550132'),
    });
    expect(ok.body.status).toBe(true);
    const me = await auth.post('/api/user/isauth', { token });
    expect(me.body.user.phone).toBe('+14155550132');
    const bad = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '12345',
      stage: 1,
      otp: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/country code/);
  });

  it('a code for one number does not verify another', async () => {
    await auth.post('/api/user/otpTransaction', { token, email, phone: '9000011111', stage: 1, otp: 0 });
    const code = await auth.lastCode('+919000011111');
    const res = await auth.post('/api/user/otpTransaction', {
      token,
      email,
      phone: '9000022222',
      stage: 2,
      otp: code,
    });
    expect(res.status).toBe(400);
  });
});
