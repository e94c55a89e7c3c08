import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ERASED_VALUE, PERSONAL_FIELDS, SEALED_PREFIX } from '@nudge/contracts';
import { DuplicateKeyError } from '../errors';
import { createEmbeddedStore } from '../store/embedded';
import type { DocumentStore } from '../store/types';

/**
 * The key store of crypto-shredding: one AES-256-GCM key per reader, in one store every service of the deployment
 * opens (`DATA_DIR/reader-keys`, or the `<prefix>_reader_keys` database). Personal fields of events are sealed with the key of the
 * reader they belong to; erasing the reader deletes the key, and every sealed copy (event stores, the bus's retained
 * messages, analytics rows, backups) reads as ERASED_VALUE from then on.
 */
export interface Keyring {
  /** Seals a value with the reader's key (created on first use). */
  seal(owner: string, value: string): Promise<string>;
  /** Loads the keys of the owners of these sealed values, so `openSync` can read them. */
  preload(sealed: Iterable<string>): Promise<void>;
  /** A sealed value as plain text (ERASED_VALUE when its key is forgotten); preload first. Not sealed: as it is. */
  openSync(value: string): string;
  /** Forgets the reader's key for good (idempotent). */
  forget(owner: string): Promise<void>;
  /** Drops a cached key (another process forgot it). */
  evict(owner: string): void;
  /** Whether the reader's key is forgotten. */
  forgotten(owner: string): Promise<boolean>;
}

type KeyDoc = { _id: string; key: string; forgottenAt?: string };

export const READER_KEYS = 'reader_keys';

const b64 = (buf: Buffer) => buf.toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url');

/** The owner id written in a sealed value, or undefined when the value is not sealed. */
export const ownerOfSealed = (value: string): string | undefined => {
  if (!value.startsWith(SEALED_PREFIX)) return undefined;
  const part = value.slice(SEALED_PREFIX.length).split('.')[0];
  return part ? unb64(part).toString('utf8') : undefined;
};

/** How long a cached key is trusted before it is read again (bounds a missed eviction in another process). */
const CACHE_MS = 60_000;

export function createKeyring(store: DocumentStore, clock: () => number = Date.now): Keyring {
  const keys = store.collection<KeyDoc>(READER_KEYS);
  /** owner → key (null: forgotten), with when it was read. */
  const cache = new Map<string, { key: Buffer | null; at: number }>();

  const cached = (owner: string) => {
    const hit = cache.get(owner);
    if (hit && clock() - hit.at < CACHE_MS) return hit;
    return undefined;
  };
  const load = async (owners: string[]): Promise<void> => {
    const wanted = [...new Set(owners)].filter((o) => !cached(o));
    if (wanted.length === 0) return;
    const found = await keys.find({ _id: { $in: wanted } });
    const byId = new Map(found.map((d) => [d._id, d]));
    const at = clock();
    for (const owner of wanted) {
      const doc = byId.get(owner);
      // No key: never sealed anything, or forgotten (the document is deleted so no copy of the key stays).
      cache.set(owner, { key: doc?.key ? unb64(doc.key) : null, at });
    }
  };

  const keyFor = async (owner: string): Promise<Buffer> => {
    await load([owner]);
    const hit = cache.get(owner);
    if (hit?.key) return hit.key;
    const key = randomBytes(32);
    try {
      await keys.insertOne({ _id: owner, key: b64(key) });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      cache.delete(owner);
      return keyFor(owner);
    }
    cache.set(owner, { key, at: clock() });
    return key;
  };

  const TOMBSTONES = store.collection<{ _id: string; at: string }>('reader_keys_forgotten');
  const tombstoned = async (owner: string) => (await TOMBSTONES.findOne({ _id: owner })) !== null;

  return {
    async seal(owner, value) {
      // An erased reader's key is never made again: what arrives for them later (a late webhook) keeps nothing. A key
      // in hand is a reader not erased (forget drops it), so the store is asked only when there is none.
      const inHand = cached(owner)?.key;
      if (!inHand && (await tombstoned(owner))) return ERASED_VALUE;
      const key = inHand ?? (await keyFor(owner));
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return `${SEALED_PREFIX}${b64(Buffer.from(owner, 'utf8'))}.${b64(iv)}.${b64(body)}.${b64(cipher.getAuthTag())}`;
    },
    async preload(sealed) {
      const owners: string[] = [];
      for (const value of sealed) {
        const owner = ownerOfSealed(value);
        if (owner !== undefined) owners.push(owner);
      }
      await load(owners);
    },
    openSync(value) {
      const owner = ownerOfSealed(value);
      if (owner === undefined) return value;
      const key = cache.get(owner)?.key;
      if (!key) return ERASED_VALUE;
      const [, iv, body, tag] = value.slice(SEALED_PREFIX.length).split('.');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, unb64(iv ?? ''));
        decipher.setAuthTag(unb64(tag ?? ''));
        return Buffer.concat([decipher.update(unb64(body ?? '')), decipher.final()]).toString('utf8');
      } catch {
        return ERASED_VALUE;
      }
    },
    async forget(owner) {
      await TOMBSTONES.replaceOne(
        { _id: owner },
        { _id: owner, at: new Date(clock()).toISOString() },
        { upsert: true },
      );
      await keys.deleteOne({ _id: owner });
      cache.set(owner, { key: null, at: clock() });
    },
    evict(owner) {
      cache.delete(owner);
    },
    forgotten: tombstoned,
  };
}

/** Seals the personal fields of one event's data (contracts' PERSONAL_FIELDS); other types pass unchanged. */
export async function sealPersonalFields(keyring: Keyring, type: string, data: unknown): Promise<unknown> {
  const spec = PERSONAL_FIELDS.get(type);
  if (!spec || typeof data !== 'object' || data === null) return data;
  const record = data as Record<string, unknown>;
  const owner = record[spec.owner];
  if (typeof owner !== 'string') return data;
  const out: Record<string, unknown> = { ...record };
  for (const field of spec.fields) {
    const value = record[field];
    if (typeof value === 'string' && !value.startsWith(SEALED_PREFIX))
      out[field] = await keyring.seal(owner, value);
  }
  return out;
}

/** The sealed strings among the top-level fields of event datas. */
function* sealedIn(datas: Iterable<unknown>): Iterable<string> {
  for (const data of datas) {
    if (typeof data !== 'object' || data === null) continue;
    for (const value of Object.values(data as Record<string, unknown>))
      if (typeof value === 'string' && value.startsWith(SEALED_PREFIX)) yield value;
  }
}

/**
 * Opens the sealed fields of event datas in place of copies: each data whose fields are sealed is returned as a new
 * object with them read (ERASED_VALUE where the key is forgotten); others are returned as they are.
 */
export async function openPersonalFields<T>(keyring: Keyring, datas: T[]): Promise<T[]> {
  const sealed = [...sealedIn(datas)];
  if (sealed.length === 0) return datas;
  await keyring.preload(sealed);
  return datas.map((data) => {
    if (typeof data !== 'object' || data === null) return data;
    let out: Record<string, unknown> | undefined;
    for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
      if (typeof value === 'string' && value.startsWith(SEALED_PREFIX)) {
        out ??= { ...(data as Record<string, unknown>) };
        out[field] = keyring.openSync(value);
      }
    }
    return (out ?? data) as T;
  });
}

let memoryKeyring: Keyring | undefined;
const bound = new WeakMap<DocumentStore, Keyring>();

/**
 * The keyring of a service's store: the deployment's key store, bound to the store when the service's runtime opened
 * it (bindKeyring), else one in memory shared by the process (tests of one service).
 */
export function keyringOf(store: DocumentStore): Keyring {
  const keyring = bound.get(store);
  if (keyring) return keyring;
  memoryKeyring ??= createKeyring(createEmbeddedStore({}));
  return memoryKeyring;
}

/** Binds a service's store to the deployment's keyring (the runtime that opens the store). */
export function bindKeyring(store: DocumentStore, keyring: Keyring): void {
  bound.set(store, keyring);
}
