import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadOrCreateSigningKeys, TOKEN_ALG } from './keys';
import { createTokenIssuer, createTokenVerifier } from './tokens';

describe('e-mail link tokens', () => {
  it('verify for their purpose only, and not once changed, expired or signed by another key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nudge-tokens-'));
    const other = await mkdtemp(join(tmpdir(), 'nudge-tokens-'));
    try {
      const keys = await loadOrCreateSigningKeys(dir);
      const issuer = createTokenIssuer(keys.privateKey, 30);
      const verifier = createTokenVerifier(keys.publicKey);
      const token = await issuer.signLink('u1', 'signin', 3_600);
      const claims = await verifier.verifyLink(token, 'signin');
      expect(claims).toMatchObject({ userId: 'u1', purpose: 'signin', jti: expect.any(String) });
      expect((claims?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(3_590_000);
      expect(await verifier.verifyLink(token, 'unsubscribe')).toBeNull();
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const forged = JSON.parse(Buffer.from(payload, 'base64url').toString());
      forged.sub = 'u2';
      expect(
        await verifier.verifyLink(
          `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`,
          'signin',
        ),
      ).toBeNull();
      expect(await verifier.verifyLink(await issuer.signLink('u1', 'signin', -10), 'signin')).toBeNull();
      const stranger = createTokenIssuer((await loadOrCreateSigningKeys(other)).privateKey, 30);
      expect(await verifier.verifyLink(await stranger.signLink('u1', 'signin', 60), 'signin')).toBeNull();
      // Two tokens for the same user and purpose are distinct (single-use purposes spend one).
      const again = await verifier.verifyLink(await issuer.signLink('u1', 'signin', 60), 'signin');
      expect(again?.jti).not.toBe(claims?.jti);
      // A token signed by jose the way links were signed before is still accepted.
      const legacy = await new SignJWT({ typ: 'link' })
        .setProtectedHeader({ alg: TOKEN_ALG })
        .setSubject('u3')
        .setIssuer('nudge-auth')
        .setAudience('nudge-link:unsubscribe')
        .setJti('j')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(keys.privateKey);
      expect(await verifier.verifyLink(legacy, 'unsubscribe')).toMatchObject({ userId: 'u3' });
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe('link tokens in a batch', () => {
  it('are signed in order in the worker thread, each for its own user and purpose, and verify as any other', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nudge-tokens-'));
    const keys = await loadOrCreateSigningKeys(dir);
    const issuer = createTokenIssuer(keys.privateKey, 30);
    const verifier = createTokenVerifier(keys.publicKey);
    try {
      const requests = Array.from({ length: 50 }, (_, i) => ({
        userId: `u${i}`,
        purpose: i % 2 === 0 ? ('signin' as const) : ('unsubscribe' as const),
        ttlSeconds: 600,
      }));
      // Two batches at once: each answer goes to its own caller.
      const [first, second] = await Promise.all([
        issuer.signLinks(requests),
        issuer.signLinks(requests.slice(0, 3)),
      ]);
      expect(first).toHaveLength(50);
      expect(second).toHaveLength(3);
      for (const [i, r] of requests.entries()) {
        const claims = await verifier.verifyLink(first[i], r.purpose);
        expect(claims).toMatchObject({ userId: r.userId, purpose: r.purpose });
        expect(
          await verifier.verifyLink(first[i], r.purpose === 'signin' ? 'unsubscribe' : 'signin'),
        ).toBeNull();
      }
      expect(await verifier.verifyLink(second[2], 'signin')).toMatchObject({ userId: 'u2' });
      expect(new Set(first).size).toBe(50);
      expect(await issuer.signLinks([])).toEqual([]);
      // Closed: a later batch starts the worker again.
      await issuer.close();
      const [again] = await issuer.signLinks([requests[0] as (typeof requests)[number]]);
      expect(await verifier.verifyLink(again, 'signin')).toMatchObject({ userId: 'u0' });
    } finally {
      await issuer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('session tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a token verified once is still refused once it expires, and a changed one is never taken for it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nudge-tokens-'));
    try {
      const keys = await loadOrCreateSigningKeys(dir);
      const issuer = createTokenIssuer(keys.privateKey, 1);
      const verifier = createTokenVerifier(keys.publicKey);
      // Issued a day minus 5 s ago: it expires in 5 s.
      const issued = new Date(Date.now() - 86_400_000 + 5_000);
      const token = await issuer.signSession({ userId: 'u1', email: 'a@example.com', role: 'user' }, issued);
      expect(await verifier.verifySession(token)).toMatchObject({ userId: 'u1', role: 'user' });
      expect(await verifier.verifySession(token)).toMatchObject({ userId: 'u1', role: 'user' });
      // One character of the signature changed: not the remembered token.
      const last = token.at(-2) === 'A' ? 'B' : 'A';
      expect(await verifier.verifySession(`${token.slice(0, -2)}${last}${token.at(-1)}`)).toBeNull();
      // A session token is not a link token, remembered or not.
      expect(await verifier.verifyLink(token, 'signin')).toBeNull();

      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 6_000);
      expect(await verifier.verifySession(token)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
