import { createEmbeddedStore, type DocumentStore, newId } from '@nudge/platform';
import { describe, expect, it } from 'vitest';
import { createMediaDelivery } from '../src/app/media-delivery';
import { contentCollections } from '../src/events/collections';
import type { MediaStore, StoredMedia } from '../src/infra/media';

/** A media store in memory that counts what is stored. */
function memoryMedia(): MediaStore & { puts: number } {
  const files = new Map<string, StoredMedia>();
  return {
    kind: 'memory',
    puts: 0,
    async put(bytes, contentType) {
      this.puts += 1;
      const id = newId();
      files.set(id, { bytes, contentType });
      return id;
    },
    get: async (id) => files.get(id) ?? null,
    async close() {},
  };
}

/** A resize that takes a while and records how many run at once. */
function slowResize(result: (width: number) => Buffer | null = (w) => Buffer.from(`webp-${w}`)) {
  const seen = { calls: 0, running: 0, mostAtOnce: 0 };
  const resize = async (_bytes: Buffer, width: number) => {
    seen.calls += 1;
    seen.running += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen.running -= 1;
    return result(width);
  };
  return { resize, seen };
}

const delivery = (store: DocumentStore, media: MediaStore, resize: ReturnType<typeof slowResize>['resize']) =>
  createMediaDelivery({ media, collections: contentCollections(store), resize });

describe('image variants', () => {
  it('makes a variant once for concurrent first requests, and reads the stored one afterwards', async () => {
    const media = memoryMedia();
    const { resize, seen } = slowResize();
    const served = delivery(createEmbeddedStore(), media, resize);
    const id = await media.put(Buffer.from('original'), 'image/png');
    const answers = await Promise.all(Array.from({ length: 10 }, () => served.serve(id, 480)));
    expect(answers.map((a) => a?.bytes.toString())).toEqual(Array(10).fill('webp-480'));
    expect(seen.calls).toBe(1);
    expect(media.puts).toBe(2);
    expect((await served.serve(id, 480))?.bytes.toString()).toBe('webp-480');
    expect(seen.calls).toBe(1);
  });

  it('makes one variant at a time in a process, whatever the images asked for', async () => {
    const media = memoryMedia();
    const { resize, seen } = slowResize();
    const served = delivery(createEmbeddedStore(), media, resize);
    const ids = await Promise.all(
      Array.from({ length: 5 }, (_, i) => media.put(Buffer.from(`original ${i}`), 'image/png')),
    );
    const answers = await Promise.all(ids.flatMap((id) => [served.serve(id, 480), served.serve(id, 960)]));
    expect(answers.every((a) => a?.contentType === 'image/webp')).toBe(true);
    expect(seen.calls).toBe(10);
    expect(seen.mostAtOnce).toBe(1);
  });

  it('with replicas on one store, each makes a variant at most once, and all then read the one recorded', async () => {
    const store = createEmbeddedStore();
    const media = memoryMedia();
    const { resize, seen } = slowResize();
    const replicas = [
      delivery(store, media, resize),
      delivery(store, media, resize),
      delivery(store, media, resize),
    ];
    const id = await media.put(Buffer.from('original'), 'image/png');
    await Promise.all(replicas.flatMap((replica) => Array.from({ length: 4 }, () => replica.serve(id, 480))));
    expect(seen.calls).toBeGreaterThanOrEqual(1);
    expect(seen.calls).toBeLessThanOrEqual(replicas.length);
    const recorded = await contentCollections(store).mediaVariants.findOne({ _id: `${id}:w480` });
    const kept = await media.get(recorded!.variantId);
    for (const replica of replicas) expect((await replica.serve(id, 480))?.bytes).toEqual(kept?.bytes);
    expect(seen.calls).toBeLessThanOrEqual(replicas.length);
  });

  it('serves an original past the size limits as its own variant, asking for it once', async () => {
    const media = memoryMedia();
    const { resize, seen } = slowResize(() => null);
    const served = delivery(createEmbeddedStore(), media, resize);
    const id = await media.put(Buffer.from('huge original'), 'image/png');
    for (let i = 0; i < 3; i += 1) {
      expect(await served.serve(id, 480)).toEqual({
        bytes: Buffer.from('huge original'),
        contentType: 'image/png',
        etag: `"${id}-w480"`,
      });
    }
    expect(seen.calls).toBe(1);
    expect(media.puts).toBe(1);
  });

  it('answers null for an unknown image', async () => {
    const { resize, seen } = slowResize();
    expect(await delivery(createEmbeddedStore(), memoryMedia(), resize).serve(newId(), 480)).toBeNull();
    expect(seen.calls).toBe(0);
  });
});
