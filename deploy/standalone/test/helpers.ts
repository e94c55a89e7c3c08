import { join } from 'node:path';
import { jsonCall, until } from '@nudge/platform/testing';
import type { Standalone } from '../src/index';

/** Calls through the gateway of a standalone process (read at call time), for the system tests. */
export function gatewayClient(app: () => Standalone) {
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(app().url, method, path, body, token);
  const ok = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await call(method, path, body, token);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** Polls until check() is true; the bus delivers between services asynchronously. */
  const eventually = (check: () => Promise<boolean>, what: string, ms = 10_000) => until(check, what, ms, 25);
  /** Signs in with the code from the dev outbox and, unless names is false, completes the profile. */
  const signIn = async (email: string, names = true) => {
    await ok('POST', '/api/user/auth', { email });
    const outbox = await ok('GET', '/api/dev/outbox');
    const otp = outbox.messages.find((m: { to: string }) => m.to === email).text.match(/\b(\d{6})\b/)[1];
    const { token, user } = await ok('POST', '/api/user/verify', { email, otp });
    if (names)
      await ok('POST', '/api/user/update', {
        email,
        token,
        info: { email, firstname: 'Rae', lastname: 'Reader' },
      });
    return { token: token as string, id: user._id as string };
  };
  return { call, ok, eventually, signIn };
}

/**
 * The configuration most system tests start a standalone process with: its own data directory, any free port, no web
 * app, the reminder scheduler off (the test drives it), admin@example.com as the admin; `extra` adds or overrides keys.
 */
export function testStandaloneEnv(
  dataDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAILS: 'admin@example.com',
    WEB_DIST: join(dataDir, 'no-web'),
    REMINDER_SCHEDULER: 'off',
    ...extra,
  };
}
