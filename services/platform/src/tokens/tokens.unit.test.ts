import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
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
