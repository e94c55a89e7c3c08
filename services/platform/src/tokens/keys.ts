import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CryptoKey, exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI } from 'jose';
import { loadOrCreateSecret } from '../secrets';

/** Session tokens (and link tokens signed before HS256): Ed25519, verified by every service with the public key. */
export const TOKEN_ALG = 'EdDSA';
/** E-mail link tokens: HMAC-SHA256 with the link secret, which only auth holds (only auth verifies links). */
export const LINK_ALG = 'HS256';

export interface SigningKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicKeyPem: string;
}

/**
 * The secrets of link tokens (LINK_TOKEN_SECRET, at least 32 characters, used as given: its UTF-8 bytes key the
 * HMAC). `previous` (LINK_TOKEN_SECRET_PREVIOUS) only verifies: links signed before a rotation keep working.
 */
export interface LinkSecrets {
  current: string;
  previous?: string;
}

export async function importSigningKeys(privatePem: string, publicPem: string): Promise<SigningKeys> {
  return {
    privateKey: await importPKCS8(privatePem, TOKEN_ALG),
    publicKey: await importSPKI(publicPem, TOKEN_ALG),
    publicKeyPem: publicPem,
  };
}

export const importVerifyKey = (publicPem: string): Promise<CryptoKey> => importSPKI(publicPem, TOKEN_ALG);

/**
 * Embedded topology: the Ed25519 key pair is generated on first start and kept under DATA_DIR/keys,
 * so tokens stay valid across restarts.
 */
export async function loadOrCreateSigningKeys(dataDir: string): Promise<SigningKeys> {
  const dir = join(dataDir, 'keys');
  const privatePath = join(dir, 'token-private.pem');
  const publicPath = join(dir, 'token-public.pem');
  if (existsSync(privatePath) && existsSync(publicPath)) {
    return importSigningKeys(await readFile(privatePath, 'utf8'), await readFile(publicPath, 'utf8'));
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pair = await generateKeyPair(TOKEN_ALG, { crv: 'Ed25519', extractable: true });
  const privatePem = await exportPKCS8(pair.privateKey);
  const publicPem = await exportSPKI(pair.publicKey);
  await writeFile(privatePath, privatePem, { mode: 0o600 });
  await writeFile(publicPath, publicPem, { mode: 0o644 });
  return importSigningKeys(privatePem, publicPem);
}

/** Embedded topology: the link secret, 32 random bytes generated on first start (DATA_DIR/keys/link-token.secret). */
export async function loadOrCreateLinkSecret(dataDir: string): Promise<string> {
  return loadOrCreateSecret(dataDir, 'link-token');
}
