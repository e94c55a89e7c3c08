import { createHmac, KeyObject, sign } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CryptoKey, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadOrCreateLinkSecret, loadOrCreateSigningKeys, type SigningKeys, TOKEN_ALG } from './keys';
import { createLinkTokens, createTokenIssuer, createTokenVerifier, type LinkTokens } from './tokens';

const SECRET = 's'.repeat(40);

/** A compact JWS of `header` and `payload`, signed with HMAC-SHA256 under `key` (the way an attacker would). */
const hs256 = (header: object, payload: object, key: string | Buffer) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
};
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString());
const linkPayload = (overrides: object = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return {
    typ: 'link',
    sub: 'u9',
    iss: 'nudge-auth',
    aud: 'nudge-link:signin',
    jti: 'j9',
    iat: now,
    exp: now + 600,
    ...overrides,
  };
};

describe('e-mail link tokens (HS256 with the link secret)', () => {
  let dir: string;
  let keys: SigningKeys;
  let links: LinkTokens;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nudge-tokens-'));
    keys = await loadOrCreateSigningKeys(dir);
    links = createLinkTokens({ secrets: { current: SECRET }, publicKey: keys.publicKey });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('verify for their purpose only, and not once changed, expired or signed with another secret', async () => {
    const token = links.signLink('u1', 'signin', 3_600);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(decode(header)).toEqual({ alg: 'HS256' });
    const claims = await links.verifyLink(token, 'signin');
    expect(claims).toMatchObject({ userId: 'u1', purpose: 'signin', jti: expect.any(String) });
    expect((claims?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(3_590_000);
    expect(await links.verifyLink(token, 'unsubscribe')).toBeNull();
    // The payload changed (another user), the signature kept.
    const forged = { ...decode(payload), sub: 'u2' };
    expect(await links.verifyLink(`${header}.${b64(forged)}.${signature}`, 'signin')).toBeNull();
    // The signature changed.
    const last = signature.at(-2) === 'A' ? 'B' : 'A';
    expect(
      await links.verifyLink(
        `${header}.${payload}.${signature.slice(0, -2)}${last}${signature.at(-1)}`,
        'signin',
      ),
    ).toBeNull();
    expect(await links.verifyLink(links.signLink('u1', 'signin', -10), 'signin')).toBeNull();
    // Signed with another secret.
    const stranger = createLinkTokens({ secrets: { current: 't'.repeat(40) }, publicKey: keys.publicKey });
    expect(await links.verifyLink(stranger.signLink('u1', 'signin', 60), 'signin')).toBeNull();
    expect(await stranger.verifyLink(stranger.signLink('u1', 'signin', 60), 'signin')).toMatchObject({
      userId: 'u1',
    });
    // Two tokens for the same user and purpose are distinct (single-use purposes spend one).
    const again = await links.verifyLink(links.signLink('u1', 'signin', 60), 'signin');
    expect(again?.jti).not.toBe(claims?.jti);
    // A token of the right shape signed by hand with the secret verifies: the test's forgeries are genuine HS256.
    expect(await links.verifyLink(hs256({ alg: 'HS256' }, linkPayload(), SECRET), 'signin')).toMatchObject({
      userId: 'u9',
    });
    // Without typ 'link', or with another issuer: refused even with the right secret.
    expect(
      await links.verifyLink(hs256({ alg: 'HS256' }, linkPayload({ typ: 'session' }), SECRET), 'signin'),
    ).toBeNull();
    expect(
      await links.verifyLink(hs256({ alg: 'HS256' }, linkPayload({ iss: 'x' }), SECRET), 'signin'),
    ).toBeNull();
    for (const junk of ['', 'a.b.c', 'x'.repeat(5000), null, undefined])
      expect(await links.verifyLink(junk, 'signin')).toBeNull();
  });

  /** An unsubscribe link for u3 (jti 'j') as jose signed link tokens before HS256: EdDSA with this key. */
  const legacyUnsubscribeLink = (privateKey: CryptoKey, expiresIn: string) =>
    new SignJWT({ typ: 'link' })
      .setProtectedHeader({ alg: TOKEN_ALG })
      .setSubject('u3')
      .setIssuer('nudge-auth')
      .setAudience('nudge-link:unsubscribe')
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(privateKey);

  it('an EdDSA link signed with the private key before HS256 still verifies until it expires', async () => {
    // As jose signed links at first, and as the hand-rolled Ed25519 signer did since (the same bytes).
    const legacy = await legacyUnsubscribeLink(keys.privateKey, '300d');
    expect(await links.verifyLink(legacy, 'unsubscribe')).toMatchObject({ userId: 'u3', jti: 'j' });
    expect(await links.verifyLink(legacy, 'signin')).toBeNull();
    // Signed by hand with node:crypto, as the Ed25519 signer did.
    const edSigned = (payload: Record<string, unknown>) => {
      const input = `${b64({ alg: 'EdDSA' })}.${b64(payload)}`;
      return `${input}.${sign(null, Buffer.from(input), KeyObject.from(keys.privateKey)).toString('base64url')}`;
    };
    expect(await links.verifyLink(edSigned(linkPayload({ sub: 'u4' })), 'signin')).toMatchObject({
      userId: 'u4',
    });
    expect(
      await links.verifyLink(edSigned(linkPayload({ exp: Math.floor(Date.now() / 1000) - 5 })), 'signin'),
    ).toBeNull();
    // Signed by another key pair: refused.
    const other = await loadOrCreateSigningKeys(join(dir, 'other'));
    const strange = await legacyUnsubscribeLink(other.privateKey, '1h');
    expect(await links.verifyLink(strange, 'unsubscribe')).toBeNull();
  });

  it('refuses algorithm confusion: HS256 keyed with the public key, alg none, other algorithms', async () => {
    const publicDer = KeyObject.from(keys.publicKey).export({ format: 'der', type: 'spki' });
    const publicRaw = publicDer.subarray(-32);
    for (const key of [keys.publicKeyPem, keys.publicKeyPem.trim(), publicDer, publicRaw])
      expect(await links.verifyLink(hs256({ alg: 'HS256' }, linkPayload(), key), 'signin')).toBeNull();
    const input = `${b64({ alg: 'none' })}.${b64(linkPayload())}`;
    expect(await links.verifyLink(`${input}.`, 'signin')).toBeNull();
    expect(await links.verifyLink(input, 'signin')).toBeNull();
    for (const alg of ['HS384', 'HS512', 'hs256', 'RS256'])
      expect(await links.verifyLink(hs256({ alg }, linkPayload(), SECRET), 'signin')).toBeNull();
  });

  it('is never a session token, and a session token is never a link', async () => {
    const verifier = createTokenVerifier(keys.publicKey);
    const issuer = createTokenIssuer(keys.privateKey, 30);
    const session = await issuer.signSession({ userId: 'u1', email: 'a@example.com', role: 'admin' });
    expect(await verifier.verifySession(session)).toMatchObject({ userId: 'u1' });
    expect(await links.verifyLink(session, 'signin')).toBeNull();
    expect(await verifier.verifySession(links.signLink('u1', 'signin', 600))).toBeNull();
    // HS256 with every claim of a session, keyed with the link secret or with the public key: refused as a session.
    const now = Math.floor(Date.now() / 1000);
    const sessionClaims = {
      typ: 'session',
      sub: 'u1',
      email: 'a@example.com',
      role: 'admin',
      iss: 'nudge-auth',
      aud: 'nudge',
      iat: now,
      iatms: now * 1000,
      exp: now + 600,
    };
    for (const key of [SECRET, keys.publicKeyPem])
      expect(await verifier.verifySession(hs256({ alg: 'HS256' }, sessionClaims, key))).toBeNull();
  });

  it('verify with the previous secret during a rotation, but sign with the current one only', async () => {
    const before = links.signLink('u5', 'unsubscribe', 600);
    const rotated = createLinkTokens({
      secrets: { current: 'n'.repeat(40), previous: SECRET },
      publicKey: keys.publicKey,
    });
    expect(await rotated.verifyLink(before, 'unsubscribe')).toMatchObject({ userId: 'u5' });
    const after = rotated.signLink('u6', 'unsubscribe', 600);
    expect(await rotated.verifyLink(after, 'unsubscribe')).toMatchObject({ userId: 'u6' });
    // Signed with the new secret: the old verifier does not know it.
    expect(await links.verifyLink(after, 'unsubscribe')).toBeNull();
    // Once the previous secret is dropped, its links are refused.
    const done = createLinkTokens({ secrets: { current: 'n'.repeat(40) }, publicKey: keys.publicKey });
    expect(await done.verifyLink(before, 'unsubscribe')).toBeNull();
  });

  it('in a batch: in order, each for its own user and purpose', async () => {
    const requests = Array.from({ length: 50 }, (_, i) => ({
      userId: `u${i}`,
      purpose: i % 2 === 0 ? ('signin' as const) : ('unsubscribe' as const),
      ttlSeconds: 600,
    }));
    const tokens = links.signLinks(requests);
    expect(tokens).toHaveLength(50);
    for (const [i, r] of requests.entries()) {
      expect(await links.verifyLink(tokens[i], r.purpose)).toMatchObject({
        userId: r.userId,
        purpose: r.purpose,
      });
      expect(await links.verifyLink(tokens[i], r.purpose === 'signin' ? 'unsubscribe' : 'signin')).toBeNull();
    }
    expect(new Set(tokens).size).toBe(50);
    expect(links.signLinks([])).toEqual([]);
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

      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 6_000);
      expect(await verifier.verifySession(token)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the link secret of the embedded topology', () => {
  it('is generated once under DATA_DIR/keys (32 random bytes) and read back after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nudge-tokens-'));
    try {
      const secret = await loadOrCreateLinkSecret(dir);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await loadOrCreateLinkSecret(dir)).toBe(secret);
      expect(await readFile(join(dir, 'keys', 'link-token.secret'), 'utf8')).toBe(secret);
      expect(await loadOrCreateLinkSecret(await mkdtemp(join(dir, 'other-')))).not.toBe(secret);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
