/**
 * The embedded store's plan cache (filters planned once per shape, values bound as parameters) and the indexes its
 * queries use. Every answer is compared with mingo judging every document (no SQL), so a plan reused for the wrong
 * shape, or kept after the collection changed what SQL can answer, shows as a wrong result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from './embedded';
import { compileFilter } from './query';
import type { Collection, Doc, DocumentStore, Filter } from './types';

type Item = Doc & { a?: unknown; b?: unknown; n?: number };

const explainOf = (c: Collection<Item>) =>
  (c as unknown as { explain(filter: Filter, options?: object): string[] }).explain.bind(c);

let store: DocumentStore;
afterEach(async () => {
  await store?.close();
});

async function seeded(): Promise<{ c: Collection<Item>; docs: Item[] }> {
  store = createEmbeddedStore();
  const c = store.collection<Item>('items');
  await c.createIndex({ a: 1 });
  await c.createIndex({ b: 1, n: 1 });
  const docs: Item[] = [
    { _id: 'one', a: 1, b: 'x', n: 1 },
    { _id: 'two', a: 2, b: 'y', n: 2 },
    { _id: 'text1', a: '1', b: 'x', n: 3 },
    { _id: 'null', a: null, b: null, n: 4 },
    { _id: 'missing', b: 'z', n: 5 },
  ];
  await c.insertMany(docs);
  return { c, docs };
}

/** What MongoDB answers: mingo over every document, in insertion order. */
const judged = (docs: Item[], filter: Filter) => {
  const test = compileFilter(filter);
  return docs.filter((d) => test(d)).map((d) => d._id);
};

const ids = async (c: Collection<Item>, filter: Filter) => (await c.find(filter)).map((d) => d._id);

describe('embedded store: plans cached by the shape of a filter', () => {
  it('answers filters with the same keys but other operators or value types as mingo does, in any order', async () => {
    const { c, docs } = await seeded();
    const filters: Filter[] = [
      { a: 1 },
      { a: { $in: [1] } },
      { a: null },
      { a: { $exists: false } },
      { a: '1' },
      { a: { $in: ['1'] } },
      { a: { $in: [1, null] } },
      { a: { $in: [] } },
      { a: { $in: [2, '1'] } },
      { a: { $gt: 1 } },
      { a: { $gte: '1' } },
      { a: { $ne: 1 } },
      { a: { $nin: [1, null] } },
      { a: 2 },
      { a: { $eq: 2 } },
      { a: true },
      { b: 'x', n: 1 },
      { b: 'x', n: { $gt: 1 } },
      { b: 'x', n: 3 },
      { $and: [{ a: 1 }, { b: 'x' }] },
      { $and: [{ a: 'x' }, { b: 1 }] },
      { $and: [{ a: 2 }, { b: 'y' }] },
      { $or: [{ a: 1 }, { b: 'z' }] },
      { $or: [{ a: '1' }, { b: null }] },
      { _id: 'one' },
      { _id: { $in: ['two', 'missing'] } },
      { _id: { $in: ['missing', 'two', 'nope'] } },
    ];
    // Twice forwards and once backwards: the later passes run on plans the earlier ones cached.
    for (const filter of [...filters, ...filters, ...[...filters].reverse()])
      expect({ filter, found: await ids(c, filter) }).toEqual({ filter, found: judged(docs, filter) });
    // Counting and deleting go through the same plans.
    expect(await c.countDocuments({ a: 1 })).toBe(1);
    expect(await c.countDocuments({ a: { $in: [1, '1', null] } })).toBe(4);
    expect(await c.countDocuments({ a: { $in: [2] } })).toBe(1);
  });

  it('plans again when a field starts holding a value SQL compares otherwise (a boolean, an array)', async () => {
    const { c, docs } = await seeded();
    expect(await ids(c, { a: 1 })).toEqual(['one']);
    expect(await ids(c, { a: { $in: [1, 2] } })).toEqual(['one', 'two']);
    // SQLite stores true as 1: a plan made before would now also find this one.
    const flag = { _id: 'flag', a: true, b: 'f', n: 6 };
    await c.insertOne(flag);
    expect(await ids(c, { a: 1 })).toEqual(['one']);
    expect(await ids(c, { a: { $in: [1, 2] } })).toEqual(['one', 'two']);
    expect(await ids(c, { a: true })).toEqual(['flag']);
    // An array element matches equality in MongoDB; SQL sees the array's JSON text.
    const list = { _id: 'list', a: [5, 1], b: 'l', n: 7 };
    await c.insertOne(list);
    const all = [...docs, flag, list];
    for (const filter of [{ a: 1 }, { a: { $in: [1, 2] } }, { a: 5 }, { a: { $gt: 4 } }])
      expect({ filter, found: await ids(c, filter) }).toEqual({ filter, found: judged(all, filter) });
    expect(judged(all, { a: 1 })).toEqual(['one', 'list']);
  });

  it('plans again after a new index (a field that was judged in JS becomes SQL)', async () => {
    const { c, docs } = await seeded();
    expect(await ids(c, { n: 2 })).toEqual(['two']);
    await c.createIndex({ n: 1 });
    expect(await ids(c, { n: 2 })).toEqual(['two']);
    expect(await ids(c, { n: { $gte: 4 } })).toEqual(judged(docs, { n: { $gte: 4 } }));
    expect(explainOf(c)({ n: 2 }).join()).toMatch(/USING INDEX ix:items:n \(<expr>=\?\)/);
  });

  it('still refuses a bad filter whose keys match a cached shape', async () => {
    const { c } = await seeded();
    await c.find({ a: 1 });
    await expect(c.find({ a: undefined })).rejects.toThrow(/undefined value in filter/);
    await expect(c.find({ a: { $in: 1 } } as unknown as Filter)).rejects.toThrow(/\$in needs an array/);
    await expect(c.find({ a: { $foo: 1 } } as unknown as Filter)).rejects.toThrow(/foo/);
    await expect(c.find({ $where: 'x' } as unknown as Filter)).rejects.toThrow(/Unsupported filter operator/);
  });

  it('reads through the indexes: _id lists, $in lists of any length, sorted pages', async () => {
    const { c } = await seeded();
    const explain = explainOf(c);
    expect(explain({ _id: { $in: ['one', 'two'] } })).toEqual([
      expect.stringMatching(/^SEARCH doc:items USING INDEX sqlite_autoindex_doc:items_1 \(_id=\?\)/),
    ]);
    const inList = explain({ a: { $in: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } });
    expect(inList.join()).toMatch(/USING INDEX ix:items:a \(<expr>=\?\)/);
    // A sorted page is one statement (not one per type bracket), in index order: no sort step.
    const page = explain({ b: 'x' }, { sort: { n: 1 }, limit: 10 });
    expect(page).toHaveLength(1);
    expect(page[0]).toMatch(/USING INDEX ix:items:b,n/);
    expect(page[0]).not.toMatch(/TEMP B-TREE/);
  });
});

describe('an insert without a copy of the document', () => {
  it('stores what the call was given, and judges an indexed field by its JSON (toJSON, Date)', async () => {
    store = createEmbeddedStore();
    const c = store.collection<Item>('items');
    await c.createIndex({ 'a.b': 1 });
    class Wrapped {
      toJSON() {
        return { b: [1, 2] };
      }
    }
    // The first document whose a.b is an array in JSON only: the collection learns from it that a.b holds arrays.
    await c.insertMany([
      { _id: 'plain', a: { toJSON: () => ({ b: [2, 3] }) }, n: 2 },
      { _id: 'date', a: { b: new Date('2024-01-01T00:00:00.000Z') }, n: 3 },
    ]);
    expect((await c.find({ 'a.b': 3 })).map((d) => d._id)).toEqual(['plain']);
    const doc: Item = { _id: 'w', a: new Wrapped(), n: 1 };
    await c.insertOne(doc);
    // Changed after the call: nothing stored changes.
    doc.n = 5;
    expect((await c.findOne({ _id: 'w' }))?.n).toBe(1);
    // The arrays the JSON holds are arrays to the queries (element membership), as MongoDB would see them.
    expect((await c.find({ 'a.b': 2 })).map((d) => d._id)).toEqual(['plain', 'w']);
    expect((await c.find({ 'a.b': '2024-01-01T00:00:00.000Z' })).map((d) => d._id)).toEqual(['date']);
  });
});
