import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { type CryptoKey, decodeProtectedHeader, errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { randomToken } from '../ids';
import { LINK_ALG, type LinkSecrets, TOKEN_ALG } from './keys';

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
  /**
   * When the link was issued, in milliseconds (claim `iatms`; a link signed before that claim existed counts from the
   * start of its `iat` second): a link issued at or before a user's revocation time is refused, as a session is.
   */
  issuedAtMs: number;
  expiresAt: Date;
}

const ISSUER = 'nudge-auth';
const SESSION_AUDIENCE = 'nudge';
const linkAudience = (purpose: LinkPurpose) => `nudge-link:${purpose}`;

/** Only auth holds one of these: it is the only signer of session tokens. */
export interface TokenIssuer {
  /** `now` (tests) defaults to the current time; it is the token's issue time (`iat`, and `iatms` in milliseconds). */
  signSession(claims: SessionClaims, now?: Date): Promise<string>;
}

export interface LinkRequest {
  userId: string;
  purpose: LinkPurpose;
  ttlSeconds: number;
}

/** Every service holds one of these: session verification needs only the public key. */
export interface TokenVerifier {
  /** The claims, or null when the token is missing, malformed, forged, expired or not a session token. */
  verifySession(token: string | undefined | null): Promise<VerifiedSession | null>;
}

/**
 * E-mail link tokens (sign-in and unsubscribe links, the Google hand-off): only auth signs and verifies them, so they
 * need no asymmetric signature. Auth alone holds one of these, with the link secret.
 */
export interface LinkTokens {
  signLink(userId: string, purpose: LinkPurpose, ttlSeconds: number): string;
  /** Many link tokens at once (a reminder batch mints two per reader), in order. */
  signLinks(requests: LinkRequest[]): string[];
  /** The claims, or null when the token is missing, malformed, forged, expired or for another purpose. */
  verifyLink(token: string | undefined | null, purpose: LinkPurpose): Promise<LinkClaims | null>;
}

export function createTokenIssuer(privateKey: CryptoKey, sessionTtlDays: number): TokenIssuer {
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
  };
}

const LINK_HEADER = Buffer.from(JSON.stringify({ alg: LINK_ALG })).toString('base64url');

/**
 * Link tokens are compact JWS with `alg: HS256`: HMAC-SHA256 of `<header>.<payload>` with the link secret, computed
 * with node:crypto on the calling thread (a few microseconds each; the Ed25519 signatures they replace cost about
 * 23 us each, in a worker thread). Verification picks the key by the header's algorithm and allows that algorithm
 * alone: HS256 with the link secret (then the previous one, during a rotation), EdDSA with the public key (links
 * signed before HS256, still in inboxes until they expire: an unsubscribe link lasts a year). Any other algorithm is
 * refused, so no key is ever used for another algorithm (an HS256 token keyed with the public key's bytes fails).
 * A session token is never a link (audience and `typ` differ), and session verification takes EdDSA only.
 */
export function createLinkTokens(opts: { secrets: LinkSecrets; publicKey: CryptoKey }): LinkTokens {
  const signingKey = linkSecretKey(opts.secrets.current);
  const hmacKeys = [opts.secrets.current, ...(opts.secrets.previous ? [opts.secrets.previous] : [])].map(
    (secret) => new Uint8Array(Buffer.from(secret, 'utf8')),
  );
  const sign = (request: LinkRequest) => {
    const input = linkInput(request);
    return `${input}.${createHmac('sha256', signingKey).update(input).digest('base64url')}`;
  };
  return {
    signLink: (userId, purpose, ttlSeconds) => sign({ userId, purpose, ttlSeconds }),
    signLinks: (requests) => requests.map(sign),
    async verifyLink(token, purpose) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return null;
      let alg: unknown;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        return null;
      }
      const audience = linkAudience(purpose);
      let payload: JWTPayload | null = null;
      if (alg === LINK_ALG) {
        for (const key of hmacKeys) {
          payload = await verifiedPayload(token, audience, key, LINK_ALG);
          if (payload) break;
        }
      } else if (alg === TOKEN_ALG) {
        payload = await verifiedPayload(token, audience, opts.publicKey, TOKEN_ALG);
      }
      if (payload?.typ !== 'link' || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') {
        return null;
      }
      return {
        userId: payload.sub,
        purpose,
        jti: payload.jti,
        issuedAtMs: issuedAtMsOf(payload),
        expiresAt: new Date((payload.exp ?? 0) * 1000),
      };
    },
  };
}

/** The HMAC key of a link secret: its UTF-8 bytes (LINK_TOKEN_SECRET is used as given). */
const linkSecretKey = (secret: string): KeyObject => createSecretKey(Buffer.from(secret, 'utf8'));

/** A token's payload when jose verifies it with this key, algorithm (that one alone), issuer and audience; else null. */
async function verifiedPayload(
  token: string,
  audience: string,
  key: CryptoKey | Uint8Array,
  alg: string,
): Promise<JWTPayload | null> {
  try {
    return (await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: [alg] })).payload;
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}

/** The header and payload of a link token (`<header>.<payload>`, base64url), the part its signature covers. */
function linkInput({ userId, purpose, ttlSeconds }: LinkRequest): string {
  const now = Date.now();
  const issuedAt = Math.floor(now / 1000);
  const payload = {
    typ: 'link',
    sub: userId,
    iss: ISSUER,
    aud: linkAudience(purpose),
    jti: randomToken(12),
    iat: issuedAt,
    iatms: now,
    exp: issuedAt + ttlSeconds,
  };
  return `${LINK_HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
}

/** When a token was issued, in ms: its `iatms`, else the start of its `iat` second (tokens from before `iatms`). */
const issuedAtMsOf = (payload: JWTPayload): number =>
  typeof payload.iatms === 'number' && Number.isSafeInteger(payload.iatms)
    ? payload.iatms
    : (payload.iat ?? 0) * 1000;

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
    const payload = await verifiedPayload(token, audience, publicKey, TOKEN_ALG);
    if (payload) verified.set(key, payload);
    return payload;
  }
  return {
    async verifySession(token) {
      const payload = await verify(token, SESSION_AUDIENCE);
      if (payload?.typ !== 'session' || typeof payload.sub !== 'string') return null;
      const role = payload.role as Role;
      if (!ROLES.includes(role) || typeof payload.email !== 'string') return null;
      return { userId: payload.sub, email: payload.email, role, issuedAtMs: issuedAtMsOf(payload) };
    },
  };
}
