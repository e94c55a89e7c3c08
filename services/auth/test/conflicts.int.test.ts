import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

// Requests that change one reader at the same moment: each is decided again on the state the other left, so none
// fails because another was recorded first, and no answer ever names the event store's streams or versions.
let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const PARALLEL = 12;

const internal = async (path: string, body: unknown) => {
  const res = await fetch(auth.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': auth.internalToken },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
};

const mint = async (path: string, userId: string) => {
  const res = await internal(path, { userId });
  expect(res.status).toBe(200);
  return JSON.parse(res.text).token as string;
};

describe('parallel changes to one reader', () => {
  it('sign-ins at once (e-mail links, check-in sessions) all succeed, and every session works', async () => {
    const { user } = await auth.signIn('many-at-once@example.com');
    const links = await Promise.all(
      Array.from({ length: PARALLEL }, () => mint('/internal/tokens/signin-link', user._id)),
    );
    const replies = await Promise.all([
      ...links.map((uid) => auth.post(`/api/user/signinbytoken/${uid}`, {})),
      ...links.map(() =>
        internal('/internal/tokens/session', { userId: user._id, linkIssuedAt: new Date().toISOString() }),
      ),
    ]);
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).not.toMatch(/stream|version/i);
    }
    for (const reply of replies) {
      const { token } = JSON.parse(reply.text) as { token: string };
      expect((await auth.post('/api/user/isauth', { token })).status).toBe(200);
    }
    const signedIn = (await auth.events.readStream(`user-${user._id}`)).filter(
      (e) => e.type === 'auth.UserSignedIn.v1',
    );
    expect(signedIn).toHaveLength(1 + 2 * PARALLEL);
  });

  it('toggles of the reminders at once each apply, as one after another would', async () => {
    const { user } = await auth.signIn('toggler@example.com');
    const unsubscribe = await mint('/internal/tokens/unsubscribe', user._id);
    const replies = await Promise.all(
      Array.from({ length: PARALLEL + 1 }, () =>
        auth.put(`/api/user/updatenotificationdetails/${unsubscribe}`),
      ),
    );
    for (const reply of replies) {
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).not.toMatch(/stream|version/i);
    }
    // An odd number of toggles from "on": off, whatever the order they landed in.
    const details = await auth.get(`/api/user/getnotificationdetails/${unsubscribe}`);
    expect(details.body.user.notiinfo.active).toBe(false);
  });
});
