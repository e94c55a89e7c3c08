/**
 * The embedded store's reads by `_id` answered from the documents it read lately: every write, deletion, drop and
 * rollback shows in the next read, documents come back in natural order and as fresh copies, as from SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './embedded';
import type { Collection, DocumentStore } from './types';

type Item = { _id: string; n: number; tag?: string };
/** A number _id (the port's type says string; the embedded store keeps numbers too). */
const FOUR = 4 as unknown as string;

let store: DocumentStore;
afterEach(async () => {
  await store?.close();
});

async function seeded(): Promise<Collection<Item>> {
  store = createEmbeddedStore();
  const c = store.collection<Item>('recent');
  await c.insertMany([
    { _id: 'a', n: 1 },
    { _id: 'b', n: 2 },
    { _id: 'c', n: 3 },
    { _id: FOUR, n: 4 },
  ]);
  return c;
}

describe('embedded store reads by _id', () => {
  it('shows every update, replacement, deletion and insert in the next read', async () => {
    const c = await seeded();
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
    await c.updateOne({ _id: 'a' }, { $inc: { n: 10 } });
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 11 });
    await c.findOneAndUpdate({ _id: 'a' }, { $set: { tag: 'x' } });
    expect(await c.find({ _id: { $in: ['a'] } })).toEqual([{ _id: 'a', n: 11, tag: 'x' }]);
    await c.replaceOne({ _id: 'a' }, { _id: 'a', n: 0 });
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 0 });
    await c.updateMany({ n: { $gte: 0 } }, { $inc: { n: 1 } });
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });

    // A document read as absent, then inserted (and upserted), is found.
    expect(await c.findOne({ _id: 'new' })).toBeNull();
    expect(await c.find({ _id: { $in: ['new', 'newer'] } })).toEqual([]);
    await c.insertOne({ _id: 'new', n: 5 });
    await c.updateOne({ _id: 'newer' }, { $set: { n: 6 } }, { upsert: true });
    expect(await c.find({ _id: { $in: ['newer', 'new'] } })).toEqual([
      { _id: 'new', n: 5 },
      { _id: 'newer', n: 6 },
    ]);

    await c.deleteOne({ _id: 'new' });
    expect(await c.findOne({ _id: 'new' })).toBeNull();
    await c.deleteMany({ _id: { $in: ['b', 'newer'] } });
    expect(await c.find({ _id: { $in: ['b', 'newer', 'c'] } })).toEqual([{ _id: 'c', n: 4 }]);
    await c.deleteMany({ n: 4 });
    expect(await c.findOne({ _id: 'c' })).toBeNull();
    expect(await c.findOne({ _id: 4 })).toEqual({ _id: 4, n: 5 });
    await c.drop();
    expect(await c.findOne({ _id: 4 })).toBeNull();
  });

  it('answers in natural order, without duplicates, by type, and as fresh copies', async () => {
    const c = await seeded();
    expect(await c.find({ _id: { $in: ['c', 'a'] } })).toEqual([
      { _id: 'a', n: 1 },
      { _id: 'c', n: 3 },
    ]);
    // a, c and 4 are kept now; b comes from SQLite, and still takes its place.
    expect((await c.find({ _id: { $in: [4, 'c', 'b', 'a', 'b'] } })).map((d) => d._id)).toEqual([
      'a',
      'b',
      'c',
      4,
    ]);
    expect(await c.findOne({ _id: '4' })).toBeNull();
    expect(await c.findOne({ _id: { $in: ['c', 'b'] } })).toEqual({ _id: 'b', n: 2 });
    expect(await c.findOne({ _id: 'a' }, { projection: { n: 1, _id: 0 } })).toEqual({ n: 1 });

    const first = (await c.findOne({ _id: 'a' })) as Item;
    first.n = 99;
    (await c.find({ _id: { $in: ['a', 'b'] } }))[0]!.n = 98;
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
  });

  it('forgets what it read when SQLite rolled the writes back', async () => {
    const c = await seeded();
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
    const db = (c as unknown as { sql: { db: { exec(sql: string): unknown } } }).sql.db;
    const exec = db.exec.bind(db);
    let failNextCommit = true;
    db.exec = (sql: string) => {
      if (sql === 'COMMIT' && failNextCommit) {
        failNextCommit = false;
        throw new Error('disk I/O error');
      }
      return exec(sql);
    };
    // In one turn: the writes and a read of what they wrote (inside the transaction), then a failed commit.
    const update = c.updateOne({ _id: 'a' }, { $set: { n: 50 } });
    const insert = c.insertOne({ _id: 'z', n: 26 });
    const reads = Promise.all([c.findOne({ _id: 'a' }), c.find({ _id: { $in: ['z', 'b'] } })]);
    await expect(update).rejects.toThrow(/disk I\/O/);
    await expect(insert).rejects.toThrow(/disk I\/O/);
    await expect(reads).rejects.toThrow(/disk I\/O/);
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
    expect(await c.find({ _id: { $in: ['z', 'b'] } })).toEqual([{ _id: 'b', n: 2 }]);
  });

  it("sees what another store object on the same folder committed (this process's connections)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nudge-recent-'));
    const mine = createEmbeddedStore({ dir });
    const other = createEmbeddedStore({ dir: `${dir}/.` });
    try {
      const c = mine.collection<Item>('shared');
      const o = other.collection<Item>('shared');
      await c.insertOne({ _id: 'a', n: 1 });
      expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
      expect(await c.find({ _id: { $in: ['a', 'b'] } })).toEqual([{ _id: 'a', n: 1 }]);
      await o.updateOne({ _id: 'a' }, { $set: { n: 2 } });
      await o.insertOne({ _id: 'b', n: 3 });
      expect(await c.find({ _id: { $in: ['a', 'b'] } })).toEqual([
        { _id: 'a', n: 2 },
        { _id: 'b', n: 3 },
      ]);
    } finally {
      await mine.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
