import { join } from 'node:path';
import type { Config } from '@nudge/platform';
import { createFileMediaStore } from './file-store';
import type { GridFsMediaOptions } from './gridfs-store';
import type { MediaStore } from './types';

export { createFileMediaStore } from './file-store';
export type { GridFsMediaOptions } from './gridfs-store';
export * from './types';

/** GridFS media; the MongoDB driver is loaded only when it is chosen (the standalone process never loads it). */
export async function createGridFsMediaStore(options: GridFsMediaOptions): Promise<MediaStore> {
  return (await import('./gridfs-store')).createGridFsMediaStore(options);
}

/** GridFS in the content database when the document store is MongoDB; files under DATA_DIR/media otherwise. */
export function openMediaStore(config: Config): Promise<MediaStore> {
  if (config.DOCUMENT_STORE === 'mongodb' && config.MONGODB_URL) {
    return createGridFsMediaStore({ url: config.MONGODB_URL, dbName: `${config.MONGODB_DB_PREFIX}_content` });
  }
  return Promise.resolve(createFileMediaStore(join(config.DATA_DIR, 'media')));
}
