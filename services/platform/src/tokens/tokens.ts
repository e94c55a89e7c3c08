import { KeyObject, sign } from 'node:crypto';
import { type CryptoKey, errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { randomToken } from '../ids';
import { type BatchSigner, createBatchSigner } from './batch-signer';
import { TOKEN_ALG } from './keys';

export type Role = 'user' | 'premium' | 'admin';
export const ROLES: readonly Role[] = ['user', 'premium', 'admin'];

export interface SessionClaims {
  userId: string;
  email: string;
  role: Role;
}

/**
 * A verified session token's claims and when it was issued, in milliseconds (claim `iatms`; a token signed before
 * that claim existed counts from the start of its `iat` second, so a revocation in that second refuses it).
 * Sessions issued at or before a user's revocation time are refused (see authenticate).
 */
export interface VerifiedSession extends SessionClaims {
  issuedAtMs: number;
}

/** What an e-mail link token may be used for; a token for one purpose is refused for any other. */
export type LinkPurpose = 'signin' | 'unsubscribe';

export interface LinkClaims {
  userId: string;
  purpose: LinkPurpose;
  /** Unique per token, so a single-use purpose can be spent once. */
  jti: string;
  expiresAt: Date;
}

const ISSUER = 'nudge-auth';
const SESSION_AUDIENCE = 'nudge';
const linkAudience = (purpose: LinkPurpose) => `nudge-link:${purpose}`;

/** Only auth holds one of these: it is the only signer of session and link tokens. */
export interface TokenIssuer {
  /** `now` (tests) defaults to the current time; it is the token's issue time (`iat`, and `iatms` in milliseconds). */
  signSession(claims: SessionClaims, now?: Date): Promise<string>;
  signLink(userId: string, purpose: LinkPurpose, ttlSeconds: number): Promise<string>;
  /** Many link tokens at once (in order), signed off the event loop. */
  signLinks(requests: LinkRequest[]): Promise<string[]>;
  /** Stops the batch signer's worker thread, if one was started. */
  close(): Promise<void>;
}

export interface LinkRequest {
  userId: string;
  purpose: LinkPurpose;
  ttlSeconds: number;
}

/** Every service holds one of these: verification needs only the public key. */
export interface TokenVerifier {
  /** The claims, or null when the token is missing, malformed, forged or expired. */
  verifySession(token: string | undefined | null): Promise<VerifiedSession | null>;
  verifyLink(token: string | undefined | null, purpose: LinkPurpose): Promise<LinkClaims | null>;
}

const LINK_HEADER = Buffer.from(JSON.stringify({ alg: TOKEN_ALG })).toString('base64url');

export function createTokenIssuer(privateKey: CryptoKey, sessionTtlDays: number): TokenIssuer {
  let signingKey: KeyObject | undefined;
  let batchSigner: BatchSigner | undefined;
  const keyObject = () => {
    signingKey ??= KeyObject.from(privateKey);
    return signingKey;
  };
  return {
    signSession: ({ userId, email, role }, now = new Date()) => {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({ email, role, typ: 'session', iatms: now.getTime() })
        .setProtectedHeader({ alg: TOKEN_ALG })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(SESSION_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + sessionTtlDays * 86_400)
        .sign(privateKey);
    },
    // A compact JWS like jose's, signed with node:crypto: WebCrypto's asynchronous Ed25519 cost several times as
    // much per token (verified by jose as any other). One token: the signature on libuv's thread pool (crypto.sign
    // with a callback), beside the event loop.
    signLink: async (userId, purpose, ttlSeconds) => {
      const input = linkInput({ userId, purpose, ttlSeconds });
      const key = keyObject();
      const signature = await new Promise<Buffer>((resolve, reject) =>
        sign(null, Buffer.from(input), key, (err, sig) => (err ? reject(err) : resolve(sig))),
      );
      return `${input}.${signature.toString('base64url')}`;
    },
    // Many tokens (a reminder batch mints two per reader): signed in a worker thread, one message per batch.
    signLinks: async (requests) => {
      const inputs = requests.map(linkInput);
      batchSigner ??= createBatchSigner(keyObject());
      const signatures = await batchSigner.sign(inputs);
      return inputs.map((input, i) => `${input}.${signatures[i]}`);
    },
    close: async () => {
      await batchSigner?.close();
      batchSigner = undefined;
    },
  };
}

/** The header and payload of a link token (`<header>.<payload>`, base64url), the part its signature covers. */
function linkInput({ userId, purpose, ttlSeconds }: LinkRequest): string {
  const issuedAt = Math.floor(Date.now() / 1000);
  const payload = {
    typ: 'link',
    sub: userId,
    iss: ISSUER,
    aud: linkAudience(purpose),
    jti: randomToken(12),
    iat: issuedAt,
    exp: issuedAt + ttlSeconds,
  };
  return `${LINK_HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
}

/** Verified tokens remembered per verifier (most recently used kept): about 0.5 KB each. */
const VERIFIED_TOKENS = 10_000;

export function createTokenVerifier(publicKey: CryptoKey): TokenVerifier {
  // A signature check (Ed25519 through WebCrypto) was the largest single cost of a signed-in request. A token's bytes
  // never change, so the payload of one already verified is remembered by its exact text and audience; its expiry
  // is checked again on every use. Only genuine tokens are remembered. Revocation is not the token's business: it is
  // checked on every request against the user's copy (authenticate).
  const verified = new LRUCache<string, JWTPayload>({ max: VERIFIED_TOKENS });
  async function verify(token: string | undefined | null, audience: string) {
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return null;
    const key = `${audience} ${token}`;
    const known = verified.get(key);
    if (known) {
      if (typeof known.exp === 'number' && known.exp <= Math.floor(Date.now() / 1000)) {
        verified.delete(key);
        return null;
      }
      return known;
    }
    try {
      const { payload } = await jwtVerify(token, publicKey, {
        issuer: ISSUER,
        audience,
        algorithms: [TOKEN_ALG],
      });
      verified.set(key, payload);
      return payload;
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
  return {
    async verifySession(token) {
      const payload = await verify(token, SESSION_AUDIENCE);
      if (payload?.typ !== 'session' || typeof payload.sub !== 'string') return null;
      const role = payload.role as Role;
      if (!ROLES.includes(role) || typeof payload.email !== 'string') return null;
      const issuedAtMs =
        typeof payload.iatms === 'number' && Number.isSafeInteger(payload.iatms)
          ? payload.iatms
          : (payload.iat ?? 0) * 1000;
      return { userId: payload.sub, email: payload.email, role, issuedAtMs };
    },
    async verifyLink(token, purpose) {
      const payload = await verify(token, linkAudience(purpose));
      if (payload?.typ !== 'link' || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') {
        return null;
      }
      return {
        userId: payload.sub,
        purpose,
        jti: payload.jti,
        expiresAt: new Date((payload.exp ?? 0) * 1000),
      };
    },
  };
}
