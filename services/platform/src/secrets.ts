import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomToken } from './ids';

/** Embedded topology: a secret generated once and kept under DATA_DIR/keys (e.g. the internal service credential). */
export async function loadOrCreateSecret(dataDir: string, name: string): Promise<string> {
  const dir = join(dataDir, 'keys');
  const path = join(dir, `${name}.secret`);
  if (existsSync(path)) return (await readFile(path, 'utf8')).trim();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const secret = randomToken(32);
  await writeFile(path, secret, { mode: 0o600 });
  return secret;
}
