/**
 * One contract for every media store adapter: files (embedded) always, GridFS when MONGODB_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileMediaStore, createGridFsMediaStore, type MediaStore } from '../src/infra/media';

function describeMediaContract(name: string, open: () => Promise<MediaStore>) {
  describe(`media store contract: ${name}`, () => {
    let media: MediaStore;
    beforeAll(async () => {
      media = await open();
      console.log(`[contract] media / ${name}: running against the ${media.kind} adapter`);
    });
    afterAll(() => media?.close());

    it('gives back exactly the bytes and content type it stored, under a 24-hex id', async () => {
      const bytes = randomBytes(300_000);
      const id = await media.put(bytes, 'image/png');
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      const found = await media.get(id);
      expect(found?.contentType).toBe('image/png');
      expect(found?.bytes.equals(bytes)).toBe(true);
    });

    it('gives every put its own id', async () => {
      const a = await media.put(Buffer.from('a'), 'image/webp');
      const b = await media.put(Buffer.from('a'), 'image/webp');
      expect(a).not.toBe(b);
      expect((await media.get(b))?.bytes.toString()).toBe('a');
    });

    it('keeps an empty file and a large one', async () => {
      const large = randomBytes(5 * 1024 * 1024);
      const id = await media.put(large, 'image/jpeg');
      expect((await media.get(id))?.bytes.equals(large)).toBe(true);
      const empty = await media.put(Buffer.alloc(0), 'image/gif');
      expect((await media.get(empty))?.bytes.length).toBe(0);
    });

    it('answers null for unknown and malformed ids, never reading outside its place', async () => {
      expect(await media.get('0123456789abcdef01234567')).toBeNull();
      expect(await media.get('../../etc/passwd')).toBeNull();
      expect(await media.get('')).toBeNull();
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'nudge-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
describeMediaContract('files', async () => createFileMediaStore(join(dir, 'media')));

describe('files: survive a reopen of the same folder', () => {
  it('reads what an earlier instance stored', async () => {
    const first = createFileMediaStore(join(dir, 'reopen'));
    const id = await first.put(Buffer.from('persisted'), 'image/png');
    await first.close();
    const second = createFileMediaStore(join(dir, 'reopen'));
    expect((await second.get(id))?.bytes.toString()).toBe('persisted');
  });
});

const mongoUrl = process.env.MONGODB_URL;
if (!mongoUrl) console.log('[contract] media / gridfs: skipped: MONGODB_URL is not set');

describe.runIf(Boolean(mongoUrl))('gridfs', () => {
  const dbName = `nudge_media_contract_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  afterAll(async () => {
    const client = new MongoClient(mongoUrl!);
    await client.connect();
    await client.db(dbName).dropDatabase();
    await client.close();
  });
  describeMediaContract('gridfs', () => createGridFsMediaStore({ url: mongoUrl!, dbName }));
});
