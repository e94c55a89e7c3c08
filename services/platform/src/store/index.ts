/**
 * The document store: the port (./types), its two adapters and the factory choosing one from config.
 * Each service owns its store: its own folder under the data directory (embedded) or its own database (MongoDB).
 */
import { createEmbeddedStore } from './embedded';
import type { MongoStoreOptions } from './mongo';
import type { DocumentStore } from './types';

export { moveCount } from './counts';
export { createEmbeddedStore, type EmbeddedStoreOptions, embeddedStoreStats } from './embedded';
export { DATA_FORMAT, DataFormatError } from './format';
export type { MongoStoreOptions } from './mongo';
export type * from './types';

export interface DocumentStoreOptions {
  /** `DOCUMENT_STORE`: 'embedded' (default deployment) or 'mongodb'. */
  kind: 'embedded' | 'mongodb';
  /** Embedded: the service's own folder, e.g. `<DATA_DIR>/auth`; omitted = in memory. */
  dir?: string;
  /** MongoDB: `MONGODB_URL`. */
  mongoUrl?: string;
  /** MongoDB: the service's own database, e.g. `nudge_auth` (`MONGODB_DB_PREFIX` + service). */
  dbName: string;
}

/**
 * The MongoDB adapter; its driver is loaded only when it is chosen (the standalone process never loads it, nor bson's
 * 17 MB serializer buffer).
 */
export async function createMongoStore(options: MongoStoreOptions): Promise<DocumentStore> {
  return (await import('./mongo')).createMongoStore(options);
}

export async function createDocumentStore(opts: DocumentStoreOptions): Promise<DocumentStore> {
  if (opts.kind === 'embedded') return createEmbeddedStore(opts.dir === undefined ? {} : { dir: opts.dir });
  if (opts.kind === 'mongodb') {
    if (!opts.mongoUrl)
      throw new Error(`MONGODB_URL is required for the MongoDB document store (database ${opts.dbName})`);
    return createMongoStore({ url: opts.mongoUrl, dbName: opts.dbName });
  }
  throw new Error(`Unknown document store kind: ${String((opts as { kind: unknown }).kind)}`);
}
