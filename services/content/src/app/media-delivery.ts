import { DuplicateKeyError } from '@nudge/platform';
import pLimit from 'p-limit';
import type { ContentCollections } from '../events/collections';
import type { MediaStore, StoredMedia } from '../infra/media';

export interface ServedMedia extends StoredMedia {
  etag: string;
}

export interface MediaDeliveryDeps {
  media: MediaStore;
  collections: ContentCollections;
  /** A WebP at most `width` wide, or null when the original may not be decoded (past the size limits). */
  resize(bytes: Buffer, width: number): Promise<Buffer | null>;
}

/**
 * Variants this process makes at once. Making one decodes its original whole (up to IMAGE_MAX_PIXELS, about 4 bytes a
 * pixel), so they are made one after another: a burst of first requests for new images queues instead of holding many
 * decoded originals in memory together.
 */
const VARIANTS_AT_ONCE = 1;

/**
 * Originals as uploaded; card-sized WebP variants made once, kept in the media store and found again by key.
 *
 * Concurrent first requests for a variant in this process share one making of it. Replicas of the content service
 * (one document and media store) do not coordinate: at worst each makes a variant once at the same moment, so one
 * variant is made at most once per replica at a time, each replica making one variant at a time; the first one
 * recorded is the one kept, and every later request reads it.
 */
export function createMediaDelivery(deps: MediaDeliveryDeps) {
  const { media, collections: c } = deps;
  const turn = pLimit(VARIANTS_AT_ONCE);
  const making = new Map<string, Promise<StoredMedia | null>>();

  /** The recorded variant of `key`: whether there is a record, and its bytes when the media store still has them. */
  async function recorded(key: string) {
    const known = await c.mediaVariants.findOne({ _id: key });
    return { known: known !== null, cached: known ? await media.get(known.variantId) : null };
  }

  async function make(id: string, width: number, key: string): Promise<StoredMedia | null> {
    // Made by another replica while this request waited for its turn.
    const { known, cached } = await recorded(key);
    if (cached) return cached;
    const original = await media.get(id);
    if (!original) return null;
    const bytes = await deps.resize(original.bytes, width);
    // An original past the size limits (stored before them) is its own variant: served as it is, never decoded.
    const variantId = bytes ? await media.put(bytes, 'image/webp') : id;
    try {
      if (known) await c.mediaVariants.replaceOne({ _id: key }, { _id: key, variantId });
      else await c.mediaVariants.insertOne({ _id: key, variantId });
    } catch (err) {
      // Another replica recorded it first: the first one recorded is the one kept.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    return bytes ? { bytes, contentType: 'image/webp' } : original;
  }

  async function variant(id: string, width: number): Promise<StoredMedia | null> {
    const key = `${id}:w${width}`;
    const { cached } = await recorded(key);
    if (cached) return cached;
    let pending = making.get(key);
    if (!pending) {
      pending = turn(() => make(id, width, key)).finally(() => making.delete(key));
      making.set(key, pending);
    }
    return pending;
  }

  return {
    async serve(id: string, width?: number): Promise<ServedMedia | null> {
      const found = width ? await variant(id, width) : await media.get(id);
      if (!found) return null;
      return { ...found, etag: `"${id}${width ? `-w${width}` : ''}"` };
    },
  };
}

export type MediaDelivery = ReturnType<typeof createMediaDelivery>;
