import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiRoutes, type RouteContract } from '@nudge/contracts';
import { jsonCall } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';

/** The services this topology runs; every other route must answer 503 until its service is built. */
const BUILT = new Set(['auth', 'content', 'engagement', 'billing', 'reporting']);
const SAMPLE_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
/** User routes that end the caller's sessions (issue 14). */
const ENDS_SESSION = new Set(['POST /api/user/logout']);

let dataDir: string;
let app: Standalone;
const tokens: Record<'user' | 'premium' | 'admin', string> = { user: '', premium: '', admin: '' };

const concretePath = (route: RouteContract) => route.path.replace(/:[A-Za-z]+/g, SAMPLE_ID);
const call = (route: RouteContract, token?: string) =>
  jsonCall(app.url, route.method, concretePath(route), route.method === 'GET' ? undefined : {}, token);

async function signIn(email: string): Promise<{ token: string; id: string }> {
  await jsonCall(app.url, 'POST', '/api/user/auth', { email });
  const outbox = await jsonCall(app.url, 'GET', '/api/dev/outbox');
  const otp = outbox.body.messages.find((m: { to: string }) => m.to === email).text.match(/\b(\d{6})\b/)[1];
  const verified = await jsonCall(app.url, 'POST', '/api/user/verify', { email, otp });
  return { token: verified.body.token, id: verified.body.user._id };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-routes-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    ADMIN_EMAILS: 'admin@example.com',
    WEB_DIST: join(dataDir, 'none'),
  });
  tokens.admin = (await signIn('admin@example.com')).token;
  tokens.user = (await signIn('user@example.com')).token;
  const premium = await signIn('premium@example.com');
  await jsonCall(
    app.url,
    'POST',
    `/api/user/update/${premium.id}`,
    { info: { role: 'premium' } },
    tokens.admin,
  );
  tokens.premium = premium.token;
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the whole routing table with anonymous, user, premium and admin tokens', () => {
  const adminRoutes = apiRoutes.filter((r) => r.access === 'admin' && BUILT.has(r.service));
  const userRoutes = apiRoutes.filter((r) => r.access === 'user' && BUILT.has(r.service));
  const unbuilt = apiRoutes.filter((r) => !BUILT.has(r.service));

  it.each(adminRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'admin route %s: 401 anonymous, 403 user and premium, allowed for admin',
    async (_name, route) => {
      expect((await call(route)).status).toBe(401);
      expect((await call(route, tokens.user)).status).toBe(403);
      expect((await call(route, tokens.premium)).status).toBe(403);
      expect([401, 403]).not.toContain((await call(route, tokens.admin)).status);
    },
  );

  it.each(userRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'user route %s: 401 anonymous, allowed with a token',
    async (_name, route) => {
      expect((await call(route)).status).toBe(401);
      // Logout ends every session of its caller: it gets a throwaway session, so the shared tokens stay valid.
      const endsSession = ENDS_SESSION.has(`${route.method} ${route.path}`);
      for (const [role, token] of Object.entries(tokens)) {
        const used = endsSession ? (await signIn(`throwaway-${role}@example.com`)).token : token;
        expect([401, 403]).not.toContain((await call(route, used)).status);
      }
    },
  );

  it('every route of a service not built yet answers 503 with a message, whoever calls', async () => {
    for (const route of unbuilt) {
      for (const token of [undefined, tokens.admin]) {
        const res = await call(route, token);
        expect(res.status, `${route.method} ${route.path}`).toBe(503);
        expect(res.body).toEqual({
          status: false,
          message: `The ${route.service} service is not available yet`,
        });
      }
    }
  });
});
