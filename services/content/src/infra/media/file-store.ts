import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '@nudge/platform';
import { isMediaId, type MediaStore } from './types';

/**
 * Media as files (embedded topology): `<dir>/<id>` holds the bytes and `<id>.json` the content type. The bytes
 * are written first and the metadata last (each via a rename), so a crash never leaves a readable half-written image.
 */
export function createFileMediaStore(dir: string): MediaStore {
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= mkdir(dir, { recursive: true });
    return ready;
  };
  const writeAtomically = async (path: string, data: Buffer | string) => {
    const temp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await writeFile(temp, data);
    await rename(temp, path);
  };

  return {
    kind: 'files',
    async put(bytes, contentType) {
      await ensureDir();
      const id = newId();
      await writeAtomically(join(dir, id), bytes);
      await writeAtomically(join(dir, `${id}.json`), JSON.stringify({ contentType }));
      return id;
    },
    async get(id) {
      if (!isMediaId(id)) return null;
      try {
        const meta = JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8')) as { contentType: string };
        return { bytes: await readFile(join(dir, id)), contentType: meta.contentType };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async close() {},
  };
}
