import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

let auth: AuthHarness;
let token: string;
const email = 'valid@example.com';

beforeAll(async () => {
  auth = await startAuth();
  ({ token } = await auth.signIn(email));
});
afterAll(() => auth.close());

/** The user's state and the event count must not move when input is refused. */
async function snapshot() {
  const user = (await auth.post('/api/user/isauth', { token })).body.user;
  const commits = await auth.store.collection('events').countDocuments({});
  return { user, commits };
}

describe('bad input gets a clear 4xx and changes nothing', () => {
  const cases: Array<[string, string, unknown, number, RegExp]> = [
    ['missing e-mail', '/api/user/auth', {}, 400, /Please enter your email/],
    ['blank e-mail', '/api/user/auth', { email: '   ' }, 400, /Please enter your email/],
    ['malformed e-mail', '/api/user/auth', { email: 'not-an-email' }, 400, /valid email/],
    ['e-mail of the wrong type', '/api/user/auth', { email: 42 }, 400, /email/i],
    ['verify without otp', '/api/user/verify', { email }, 400, /code/],
    ['otp with letters', '/api/user/verify', { email, otp: '12ab56' }, 400, /6 digits/],
    [
      'unknown time zone',
      '/api/user/verify',
      { email, otp: '123456', timeZone: 'Mars/Olympus' },
      400,
      /Time zone/,
    ],
    [
      'phone with letters',
      '/api/user/update',
      { email, info: { ageConfirmed: true, phone: '98765abc' } },
      400,
      /country code/,
    ],
    [
      'phone that is no number of its country',
      '/api/user/update',
      { email, info: { ageConfirmed: true, phone: '+44 12' } },
      400,
      /country code/,
    ],
    [
      'time not on a 15-minute step',
      '/api/user/update',
      { email, info: { ageConfirmed: true, notiinfo: { time: '08:10', active: true } } },
      400,
      /15-minute step/,
    ],
    [
      'time out of range',
      '/api/user/update',
      { email, info: { ageConfirmed: true, notiinfo: { time: '24:00', active: true } } },
      400,
      /15-minute step/,
    ],
    [
      'toggle of the wrong type',
      '/api/user/update',
      { email, info: { ageConfirmed: true, enableEmail: 'yes' } },
      400,
      /enableEmail/,
    ],
    [
      'topics not a list',
      '/api/user/update',
      { email, info: { ageConfirmed: true, topics: 'abc' } },
      400,
      /topics/,
    ],
    [
      'topic not an id',
      '/api/user/update',
      { email, info: { ageConfirmed: true, topics: ['abc'] } },
      400,
      /valid id/,
    ],
    ['info missing', '/api/user/update', { token, email }, 400, /info/],
    [
      'otp stage out of range',
      '/api/user/otpTransaction',
      { email, phone: '9876543210', stage: 7, otp: 0 },
      400,
      /stage/,
    ],
    [
      'otp phone with letters',
      '/api/user/otpTransaction',
      { email, phone: 'phone', stage: 1, otp: 0 },
      400,
      /country code/,
    ],
  ];

  it.each(cases)('%s', async (_name, path, body, status, message) => {
    const before = await snapshot();
    const outboxBefore = (await auth.outbox.list()).length;
    const res = await auth.post(path, body, token);
    expect(res.status).toBe(status);
    expect(res.body.status).toBe(false);
    expect(res.body.message).toMatch(message);
    expect(await snapshot()).toEqual(before);
    expect((await auth.outbox.list()).length).toBe(outboxBefore);
  });

  it('a body that is not JSON', async () => {
    const res = await fetch(`${auth.url}/api/user/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: false, message: 'The request body is not valid JSON' });
  });

  it('a body whose bytes do not match its Content-Encoding is a 400, an unknown encoding a 415', async () => {
    for (const [encoding, status] of [
      ['gzip', 400],
      ['deflate', 400],
      ['br', 400],
      ['x-unknown', 415],
    ] as const) {
      const res = await fetch(`${auth.url}/api/user/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: 'these bytes are not compressed',
      });
      expect(res.status, encoding).toBe(status);
      expect((await res.json()).status).toBe(false);
    }
  });

  it('a body over the limit', async () => {
    const before = await snapshot();
    const res = await auth.post(
      '/api/user/update',
      { email, info: { ageConfirmed: true, firstname: 'x'.repeat(200_000) } },
      token,
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status: false, message: 'The request body is too large' });
    expect(await snapshot()).toEqual(before);
  });

  it('a name over 100 characters', async () => {
    const res = await auth.post(
      '/api/user/update',
      { email, info: { ageConfirmed: true, firstname: 'x'.repeat(101) } },
      token,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/100 characters/);
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await auth.get('/api/user/nope');
    expect(res.status).toBe(404);
    expect(res.body.status).toBe(false);
  });
});
