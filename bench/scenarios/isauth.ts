import { signIn } from './sign-in';
import type { Scenario } from './types';

/** The call every page load makes: is this stored token still a session? Gateway -> auth -> token + user lookup. */
export const isauth: Scenario = {
  name: 'isauth',
  async setup({ url }) {
    const { token } = await signIn(url, `bench-isauth-${Date.now()}@example.com`);
    return { method: 'POST', path: '/api/user/isauth', body: { token } };
  },
};
