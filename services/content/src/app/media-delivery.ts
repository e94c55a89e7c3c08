import { DuplicateKeyError } from '@nudge/platform';
import type { ContentCollections } from '../events/collections';
import type { MediaStore, StoredMedia } from '../infra/media';

export interface ServedMedia extends StoredMedia {
  etag: string;
}

export interface MediaDeliveryDeps {
  media: MediaStore;
  collections: ContentCollections;
  resize(bytes: Buffer, width: number): Promise<Buffer>;
}

/** Originals as uploaded; card-sized WebP variants made once, kept in the media store and found again by key. */
export function createMediaDelivery(deps: MediaDeliveryDeps) {
  const { media, collections: c } = deps;

  async function variant(id: string, width: number): Promise<StoredMedia | null> {
    const key = `${id}:w${width}`;
    const known = await c.mediaVariants.findOne({ _id: key });
    if (known) {
      const cached = await media.get(known.variantId);
      if (cached) return cached;
    }
    const original = await media.get(id);
    if (!original) return null;
    const bytes = await deps.resize(original.bytes, width);
    const variantId = await media.put(bytes, 'image/webp');
    try {
      if (known) await c.mediaVariants.replaceOne({ _id: key }, { _id: key, variantId });
      else await c.mediaVariants.insertOne({ _id: key, variantId });
    } catch (err) {
      // Two first requests raced: both made the same variant; the first one recorded is the one kept.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    return { bytes, contentType: 'image/webp' };
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
