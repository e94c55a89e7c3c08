import type { Server } from 'node:http';
import { AuthEvents, type EventDef, eventData } from '@nudge/contracts';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../events/types';
import { authenticate, createHttpApp, finishApp, requireRole, requireUser } from '../http';
import { createLogger } from '../logger';
import { closeServer, listen } from '../runtime';
import { createEmbeddedStore } from '../store';
import { jsonCall, userRegisteredData } from '../testing';
import { createTokenIssuer, createTokenVerifier, type Role, TOKEN_ALG, type TokenIssuer } from '../tokens';
import { createUserDirectory, type UserDirectory } from './user-directory';

// Sessions ended on the server, as every service other than auth sees it: authenticate() over the service's user copy refuses a token
// of an ended session, and applies a role downgrade to old tokens at once.
const ENDED = 'Your session has ended; please sign in again';

let directory: UserDirectory;
let issuer: TokenIssuer;
let server: Server;
let url: string;
const versions = new Map<string, number>();

const deliver = async (userId: string, def: EventDef, data: Record<string, unknown>) => {
  const version = (versions.get(userId) ?? 0) + 1;
  versions.set(userId, version);
  const event: EventEnvelope = {
    id: `${userId}-${version}`,
    type: def.type,
    stream: `user-${userId}`,
    version,
    occurredAt: new Date().toISOString(),
    actor: null,
    data: eventData(def, { type: def.type, data: { userId, ...data } }),
    meta: {},
  };
  await directory.handlers[event.type]?.(event);
  return event;
};

const register = (userId: string, role: Role) => {
  const { userId: _, ...data } = userRegisteredData(userId, `${userId}@example.com`, role);
  return deliver(userId, AuthEvents.UserRegistered, data);
};

const session = (userId: string, role: Role, at?: Date) =>
  issuer.signSession({ userId, email: `${userId}@example.com`, role }, at);
const get = (path: string, token?: string) => jsonCall(url, 'GET', path, undefined, token);

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALG, { crv: 'Ed25519' });
  issuer = createTokenIssuer(privateKey, 1);
  directory = createUserDirectory(createEmbeddedStore({}));
  const log = createLogger('revocation-test', 'silent');
  const app = createHttpApp({ log, bodyLimit: '10kb' });
  app.use(authenticate({ verifier: createTokenVerifier(publicKey), currentUser: directory.currentUser }));
  app.get('/public', (req, res) => {
    res.json({ status: true, role: req.auth?.role ?? null });
  });
  app.get('/me', requireUser, (req, res) => {
    res.json({ status: true, role: req.auth?.role });
  });
  app.get('/admin', requireRole('admin'), (_req, res) => {
    res.json({ status: true });
  });
  finishApp(app, log);
  ({ server, url } = await listen(app, 0));
});
afterAll(() => closeServer(server));

describe('authenticate over the user directory: ended sessions', () => {
  it('refuses every token issued before the user’s SessionsRevoked, on any route, and keeps other users', async () => {
    await register('ann', 'user');
    await register('bob', 'user');
    const ann = await session('ann', 'user');
    const annOther = await session('ann', 'user');
    const bob = await session('bob', 'user');
    expect((await get('/me', ann)).status).toBe(200);

    await new Promise((r) => setTimeout(r, 2));
    await deliver('ann', AuthEvents.SessionsRevoked, { before: new Date().toISOString(), reason: 'logout' });

    for (const token of [ann, annOther]) {
      const me = await get('/me', token);
      expect(me.status).toBe(401);
      expect(me.body).toEqual({ status: false, message: ENDED });
      // A public route (the feed) serves a browser still holding the ended token as a visitor, like an expired one.
      expect((await get('/public', token)).body).toEqual({ status: true, role: null });
    }
    expect((await get('/me', bob)).body).toEqual({ status: true, role: 'user' });
    expect((await get('/public')).body).toEqual({ status: true, role: null });
  });

  it('refuses a token of the revocation’s own millisecond and accepts one issued after it', async () => {
    await register('cat', 'admin');
    const before = new Date(Date.now() + 10);
    await deliver('cat', AuthEvents.SessionsRevoked, { before: before.toISOString(), reason: 'admin' });
    const same = await session('cat', 'admin', before);
    expect((await get('/me', same)).status).toBe(401);
    // An admin route says the same (401 with the message, not 403).
    expect((await get('/admin', same)).body).toEqual({ status: false, message: ENDED });
    expect((await get('/admin', await session('cat', 'admin', new Date(before.getTime() + 1)))).status).toBe(
      200,
    );
  });

  it('a redelivered older revocation does not undo a later one', async () => {
    await register('dan', 'user');
    const first = await deliver('dan', AuthEvents.SessionsRevoked, {
      before: new Date(Date.now() - 60_000).toISOString(),
      reason: 'logout',
    });
    await deliver('dan', AuthEvents.SessionsRevoked, { before: new Date().toISOString(), reason: 'admin' });
    await directory.handlers[first.type]?.(first);
    expect((await get('/me', await session('dan', 'user', new Date(Date.now() - 30_000)))).status).toBe(401);
  });

  it('a user this service has not heard of yet keeps the token’s role (their events are still on the bus)', async () => {
    expect((await get('/me', await session('newcomer', 'premium'))).body).toEqual({
      status: true,
      role: 'premium',
    });
  });
});

describe('authenticate over the user directory: role downgrades apply to old tokens at once', () => {
  it('premium ended: the old premium token is treated as a plain user', async () => {
    await register('eve', 'premium');
    const token = await session('eve', 'premium');
    expect((await get('/me', token)).body.role).toBe('premium');
    await deliver('eve', AuthEvents.RoleChanged, { from: 'premium', to: 'user', reason: 'billing' });
    expect((await get('/me', token)).body).toEqual({ status: true, role: 'user' });
  });

  it('admin removed: the old admin token is refused admin routes (403)', async () => {
    await register('fay', 'admin');
    const token = await session('fay', 'admin');
    expect((await get('/admin', token)).status).toBe(200);
    await deliver('fay', AuthEvents.RoleChanged, { from: 'admin', to: 'user', reason: 'admin' });
    const refused = await get('/admin', token);
    expect(refused.status).toBe(403);
    expect(refused.body.status).toBe(false);
  });
});
