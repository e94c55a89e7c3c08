/**
 * One contract for every document store adapter: the embedded store (in memory and on disk) always,
 * MongoDB when MONGODB_URL is set or a Docker engine can start one (testcontainers).
 * Expectations are MongoDB's behaviour; the embedded adapter has to match it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../errors';
import { createEmbeddedStore, STORE_FILE } from './embedded';
import { DATA_FORMAT, DataFormatError } from './format';
import { createMongoStore, dropMongoDatabase } from './mongo';
import type { Collection, Doc, DocumentStore, Filter } from './types';

export interface StoreContractOptions {
  /** Calling makeStore again reaches the same data (a directory, a database): also test close and reopen. */
  persistent?: boolean;
}

const isPlainTree = (v: unknown): boolean => {
  if (Array.isArray(v)) return v.every(isPlainTree);
  if (typeof v === 'object' && v !== null) {
    return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every(isPlainTree);
  }
  return true;
};

/** `Doc` itself rejects extra fields in object literals (an intersection with Record), so tests use this shape. */
type Loose = { _id: string; [key: string]: unknown };

const ids = (docs: Doc[]): string[] => docs.map((d) => d._id);
const sortedIds = (docs: Doc[]): string[] => ids(docs).sort();

export function describeStoreContract(
  name: string,
  makeStore: () => Promise<DocumentStore>,
  options: StoreContractOptions = {},
): void {
  describe(`document store contract: ${name}`, () => {
    let store: DocumentStore;
    let counter = 0;
    const run = randomBytes(3).toString('hex');
    /** Every test works in its own collection. */
    const fresh = <T extends Doc = Loose>(): Collection<T> => store.collection<T>(`t${run}_${++counter}`);

    beforeAll(async () => {
      store = await makeStore();
      console.log(`[contract] document store / ${name}: running against the ${store.kind} adapter`);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    describe('documents', () => {
      it('returns plain JSON-able copies equal to what was inserted', async () => {
        const c = fresh();
        const doc = {
          _id: 'd1',
          name: 'Zoë ✓ 🚀',
          count: 3,
          ratio: 0.25,
          negative: -7,
          active: true,
          off: false,
          nothing: null,
          tags: ['a', 'b'],
          nested: { deep: { list: [1, { x: 'y' }], empty: {} }, emptyList: [] },
          at: '2024-05-01T10:00:00.000Z',
        };
        await c.insertOne(doc);
        const found = await c.findOne({ _id: 'd1' });
        expect(found).toEqual(doc);
        expect(isPlainTree(found)).toBe(true);
        expect(JSON.parse(JSON.stringify(found))).toEqual(found);
        const [listed] = await c.find({});
        expect(listed).toEqual(doc);
        expect(isPlainTree(listed)).toBe(true);
      });

      it('keeps no reference to inserted or returned objects', async () => {
        const c = fresh();
        const doc = { _id: 'd1', tags: ['a'], nested: { n: 1 } };
        await c.insertOne(doc);
        doc.tags.push('changed');
        doc.nested.n = 99;
        const found = await c.findOne({ _id: 'd1' });
        expect(found).toEqual({ _id: 'd1', tags: ['a'], nested: { n: 1 } });
        if (!found) throw new Error('inserted document not found');
        (found.tags as string[]).push('mutated');
        expect(await c.findOne({ _id: 'd1' })).toEqual({ _id: 'd1', tags: ['a'], nested: { n: 1 } });
      });

      it('drops undefined fields', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'd1', a: 1, gone: undefined });
        const found = await c.findOne({ _id: 'd1' });
        expect(found).toEqual({ _id: 'd1', a: 1 });
        expect(found && 'gone' in found).toBe(false);
      });

      it('returns null and [] when nothing matches', async () => {
        const c = fresh();
        expect(await c.findOne({ _id: 'nope' })).toBeNull();
        expect(await c.find({ a: 1 })).toEqual([]);
        expect(await c.countDocuments()).toBe(0);
      });

      it('raises DuplicateKeyError on a taken _id', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'd1', v: 1 });
        await expect(c.insertOne({ _id: 'd1', v: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.findOne({ _id: 'd1' })).toEqual({ _id: 'd1', v: 1 });
      });

      it('insertMany inserts in order and stops at the first clash', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'c', v: 0 });
        await expect(
          c.insertMany([
            { _id: 'a', v: 1 },
            { _id: 'b', v: 2 },
            { _id: 'c', v: 3 },
            { _id: 'd', v: 4 },
          ]),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(sortedIds(await c.find({}))).toEqual(['a', 'b', 'c']);
        expect(await c.findOne({ _id: 'c' })).toEqual({ _id: 'c', v: 0 });
        await c.insertMany([]);
        expect(await c.countDocuments()).toBe(3);
      });
    });

    describe('filters', () => {
      let c: Collection<Loose>;
      beforeAll(async () => {
        c = fresh();
        await c.insertMany([
          {
            _id: 'p1',
            name: 'Alice',
            age: 30,
            tags: ['admin', 'staff'],
            address: { city: 'Paris', zip: '75001' },
            score: 10,
          },
          {
            _id: 'p2',
            name: 'bob',
            age: 25,
            tags: ['staff'],
            address: { city: 'Lyon', zip: '69001' },
            score: null,
          },
          { _id: 'p3', name: 'Carol', age: 35, tags: [], address: { city: 'Paris', zip: '75002' } },
          {
            _id: 'p4',
            name: 'dave',
            age: '40',
            items: [
              { sku: 'x', qty: 1 },
              { sku: 'y', qty: 5 },
            ],
          },
          {
            _id: 'p5',
            name: 'Eve',
            age: 28,
            tags: ['guest'],
            items: [{ sku: 'y', qty: 2 }],
            email: 'eve@example.com',
          },
        ]);
      });
      const q = async (filter: Record<string, unknown>) => sortedIds(await c.find(filter));

      it('matches field equality, dotted paths and arrays of documents', async () => {
        expect(await q({ name: 'Alice' })).toEqual(['p1']);
        expect(await q({ age: 30 })).toEqual(['p1']);
        expect(await q({ age: '40' })).toEqual(['p4']);
        expect(await q({ 'address.city': 'Paris' })).toEqual(['p1', 'p3']);
        expect(await q({ 'address.city': 'Paris', age: 35 })).toEqual(['p3']);
        expect(await q({ 'items.sku': 'y' })).toEqual(['p4', 'p5']);
        expect(await q({ 'items.qty': { $gte: 5 } })).toEqual(['p4']);
        expect(await q({})).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
      });

      it('matches array membership and whole arrays', async () => {
        expect(await q({ tags: 'staff' })).toEqual(['p1', 'p2']);
        expect(await q({ tags: ['admin', 'staff'] })).toEqual(['p1']);
        expect(await q({ tags: ['staff', 'admin'] })).toEqual([]);
        expect(await q({ tags: [] })).toEqual(['p3']);
      });

      it('matches embedded documents exactly (same fields, same order)', async () => {
        expect(await q({ address: { city: 'Paris', zip: '75001' } })).toEqual(['p1']);
        expect(await q({ address: { zip: '75001', city: 'Paris' } })).toEqual([]);
        expect(await q({ address: { city: 'Paris' } })).toEqual([]);
      });

      it('null matches null and missing fields', async () => {
        expect(await q({ score: null })).toEqual(['p2', 'p3', 'p4', 'p5']);
        expect(await q({ email: null })).toEqual(['p1', 'p2', 'p3', 'p4']);
        expect(await q({ score: { $ne: null } })).toEqual(['p1']);
      });

      it('supports $eq and $ne (on arrays: no element equal)', async () => {
        expect(await q({ name: { $eq: 'bob' } })).toEqual(['p2']);
        expect(await q({ tags: { $eq: 'guest' } })).toEqual(['p5']);
        expect(await q({ name: { $ne: 'bob' } })).toEqual(['p1', 'p3', 'p4', 'p5']);
        expect(await q({ tags: { $ne: 'staff' } })).toEqual(['p3', 'p4', 'p5']);
        expect(await q({ email: { $ne: 'eve@example.com' } })).toEqual(['p1', 'p2', 'p3', 'p4']);
      });

      it('compares with $gt/$gte/$lt/$lte within one type only', async () => {
        expect(await q({ age: { $gt: 28 } })).toEqual(['p1', 'p3']);
        expect(await q({ age: { $gte: 28 } })).toEqual(['p1', 'p3', 'p5']);
        expect(await q({ age: { $lt: 28 } })).toEqual(['p2']);
        expect(await q({ age: { $lte: 28 } })).toEqual(['p2', 'p5']);
        expect(await q({ age: { $gt: 26, $lt: 31 } })).toEqual(['p1', 'p5']);
        expect(await q({ age: { $gte: '0' } })).toEqual(['p4']);
        expect(await q({ name: { $gte: 'C', $lt: 'a' } })).toEqual(['p3', 'p5']);
        expect(await q({ 'address.zip': { $gt: '70000' } })).toEqual(['p1', 'p3']);
      });

      it('supports $in and $nin (arrays: any element; null: missing too)', async () => {
        expect(await q({ name: { $in: ['bob', 'Eve', 'nobody'] } })).toEqual(['p2', 'p5']);
        expect(await q({ tags: { $in: ['guest', 'admin'] } })).toEqual(['p1', 'p5']);
        expect(await q({ email: { $in: [null, 'x'] } })).toEqual(['p1', 'p2', 'p3', 'p4']);
        expect(await q({ _id: { $in: ['p3', 'p1', 'zz'] } })).toEqual(['p1', 'p3']);
        expect(await q({ name: { $in: [] } })).toEqual([]);
        expect(await q({ tags: { $nin: ['staff'] } })).toEqual(['p3', 'p4', 'p5']);
        expect(await q({ _id: { $nin: ['p1', 'p2'] } })).toEqual(['p3', 'p4', 'p5']);
      });

      it('supports $exists (null counts as existing)', async () => {
        expect(await q({ score: { $exists: true } })).toEqual(['p1', 'p2']);
        expect(await q({ score: { $exists: false } })).toEqual(['p3', 'p4', 'p5']);
        expect(await q({ 'address.zip': { $exists: true } })).toEqual(['p1', 'p2', 'p3']);
        expect(await q({ 'items.qty': { $exists: true } })).toEqual(['p4', 'p5']);
      });

      it('supports $regex as a string pattern, with $options i', async () => {
        expect(await q({ name: { $regex: '^[a-c]' } })).toEqual(['p2']);
        expect(await q({ name: { $regex: '^[a-c]', $options: 'i' } })).toEqual(['p1', 'p2', 'p3']);
        expect(await q({ email: { $regex: 'EXAMPLE\\.com$', $options: 'i' } })).toEqual(['p5']);
        expect(await q({ tags: { $regex: '^st' } })).toEqual(['p1', 'p2']);
        expect(await q({ age: { $regex: '3' } })).toEqual([]);
      });

      it('supports $and and $or, nested', async () => {
        expect(await q({ $or: [{ name: 'bob' }, { 'address.city': 'Paris' }] })).toEqual(['p1', 'p2', 'p3']);
        expect(await q({ $and: [{ age: { $gte: 25 } }, { age: { $lte: 30 } }] })).toEqual(['p1', 'p2', 'p5']);
        expect(
          await q({
            $and: [
              { $or: [{ tags: 'staff' }, { tags: 'guest' }] },
              { $or: [{ age: { $lt: 26 } }, { name: 'Eve' }] },
            ],
          }),
        ).toEqual(['p2', 'p5']);
        expect(await q({ 'address.city': 'Paris', $or: [{ age: 30 }, { age: 99 }] })).toEqual(['p1']);
      });

      it('counts documents with and without a filter', async () => {
        expect(await c.countDocuments()).toBe(5);
        expect(await c.countDocuments({})).toBe(5);
        expect(await c.countDocuments({ tags: 'staff' })).toBe(2);
        expect(await c.countDocuments({ name: { $regex: 'e', $options: 'i' } })).toBe(3);
      });

      it('throws on operators outside the port, naming them', async () => {
        for (const [op, filter] of [
          ['$size', { tags: { $size: 1 } }],
          ['$elemMatch', { items: { $elemMatch: { sku: 'x' } } }],
          ['$all', { tags: { $all: ['staff'] } }],
          ['$not', { age: { $not: { $gt: 3 } } }],
          ['$nor', { $nor: [{ age: 3 }] }],
          ['$where', { $where: 'true' }],
          ['$expr', { $expr: { $eq: ['$a', 1] } }],
        ] as const) {
          await expect(c.find(filter), op).rejects.toThrow(op);
        }
        await expect(c.countDocuments({ tags: { $size: 0 } })).rejects.toThrow('$size');
        await expect(c.updateOne({ tags: { $size: 0 } }, { $set: { a: 1 } })).rejects.toThrow('$size');
        await expect(c.deleteMany({ tags: { $size: 0 } })).rejects.toThrow('$size');
        expect(await c.countDocuments()).toBe(5);
      });

      it('refuses undefined in a filter instead of matching everything', async () => {
        await expect(c.find({ name: undefined })).rejects.toThrow(/undefined/);
        await expect(c.deleteMany({ _id: { $in: ['p1', undefined] } })).rejects.toThrow(/undefined/);
        await expect(c.updateMany({ $or: [{ name: undefined }] }, { $set: { x: 1 } })).rejects.toThrow(
          /undefined/,
        );
        expect(await c.countDocuments()).toBe(5);
      });
    });

    describe('sort, skip, limit, projection', () => {
      let c: Collection<Loose>;
      beforeAll(async () => {
        c = fresh();
        await c.insertMany([
          { _id: 'e', score: 2, name: 'eve', group: 'x' },
          { _id: 'a', score: 3, name: 'amy', group: 'y' },
          { _id: 'd', score: 2, name: 'dan', group: 'x' },
          { _id: 'c', score: 1, name: 'cat' },
          { _id: 'b', score: 2, name: 'bea', group: 'y' },
          { _id: 'f', score: 3, name: 'fay', group: 'x' },
        ]);
      });

      it('sorts on several keys, ties broken by the next key', async () => {
        expect(ids(await c.find({}, { sort: { score: -1, _id: 1 } }))).toEqual([
          'a',
          'f',
          'b',
          'd',
          'e',
          'c',
        ]);
        expect(ids(await c.find({}, { sort: { score: 1, name: -1 } }))).toEqual([
          'c',
          'e',
          'd',
          'b',
          'f',
          'a',
        ]);
        expect(ids(await c.find({}, { sort: { name: 1 } }))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      });

      it('skips and limits after sorting, across ties', async () => {
        expect(ids(await c.find({}, { sort: { score: -1, _id: 1 }, skip: 2, limit: 3 }))).toEqual([
          'b',
          'd',
          'e',
        ]);
        expect(ids(await c.find({}, { sort: { score: -1, _id: 1 }, skip: 5, limit: 3 }))).toEqual(['c']);
        expect(ids(await c.find({}, { sort: { score: -1, _id: 1 }, skip: 9 }))).toEqual([]);
        expect(ids(await c.find({ group: 'x' }, { sort: { _id: -1 }, limit: 2 }))).toEqual(['f', 'e']);
        const pages: string[] = [];
        for (let skip = 0; skip < 6; skip += 4) {
          pages.push(...ids(await c.find({}, { sort: { score: 1, _id: 1 }, skip, limit: 4 })));
        }
        expect(pages).toEqual(['c', 'b', 'd', 'e', 'a', 'f']);
        expect(await c.find({}, { limit: 4 })).toHaveLength(4);
        expect(await c.find({}, { skip: 4 })).toHaveLength(2);
      });

      it('sorts missing fields first when ascending, last when descending', async () => {
        expect(ids(await c.find({}, { sort: { group: 1, _id: 1 } }))).toEqual(['c', 'd', 'e', 'f', 'a', 'b']);
        expect(ids(await c.find({}, { sort: { group: -1, _id: 1 } }))).toEqual([
          'a',
          'b',
          'd',
          'e',
          'f',
          'c',
        ]);
      });

      it('sorts an array field by its smallest element ascending, largest descending', async () => {
        const arr = fresh();
        await arr.insertMany([
          { _id: 'one', v: [5, 1] },
          { _id: 'two', v: [3] },
          { _id: 'three', v: [2, 9] },
        ]);
        expect(ids(await arr.find({}, { sort: { v: 1 } }))).toEqual(['one', 'three', 'two']);
        expect(ids(await arr.find({}, { sort: { v: -1 } }))).toEqual(['three', 'one', 'two']);
      });

      it('findOne honours sort', async () => {
        expect((await c.findOne({ score: 2 }, { sort: { name: -1 } }))?._id).toBe('e');
        expect((await c.findOne({}, { sort: { score: 1 } }))?._id).toBe('c');
      });

      it('projects by inclusion, exclusion and dotted paths', async () => {
        const p = fresh();
        await p.insertOne({ _id: 'x', a: 1, b: { c: 2, d: 3 }, list: [{ k: 1, j: 2 }, { k: 3 }], e: 'e' });
        expect(await p.findOne({ _id: 'x' }, { projection: { a: 1 } })).toEqual({ _id: 'x', a: 1 });
        expect(await p.findOne({ _id: 'x' }, { projection: { a: 1, _id: 0 } })).toEqual({ a: 1 });
        expect(await p.findOne({ _id: 'x' }, { projection: { 'b.c': 1, e: 1 } })).toEqual({
          _id: 'x',
          b: { c: 2 },
          e: 'e',
        });
        expect(await p.findOne({ _id: 'x' }, { projection: { 'list.k': 1 } })).toEqual({
          _id: 'x',
          list: [{ k: 1 }, { k: 3 }],
        });
        expect(await p.findOne({ _id: 'x' }, { projection: { b: 0, list: 0 } })).toEqual({
          _id: 'x',
          a: 1,
          e: 'e',
        });
        expect(await p.findOne({ _id: 'x' }, { projection: { 'b.d': 0, _id: 0, list: 0 } })).toEqual({
          a: 1,
          b: { c: 2 },
          e: 'e',
        });
        expect(await p.findOne({ _id: 'x' }, { projection: { missing: 1 } })).toEqual({ _id: 'x' });
        expect(await p.find({}, { projection: { e: 1, _id: 0 } })).toEqual([{ e: 'e' }]);
        await expect(p.find({}, { projection: { a: 1, b: 0 } })).rejects.toThrow();
      });
    });

    describe('updates', () => {
      it('$set creates and replaces fields, including dotted paths', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', a: 1, nested: { keep: true } });
        const r = await c.updateOne(
          { _id: 'u' },
          { $set: { a: 2, 'nested.added': 'yes', 'fresh.deep.x': 1, list: [1, 2] } },
        );
        expect(r).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await c.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          a: 2,
          nested: { keep: true, added: 'yes' },
          fresh: { deep: { x: 1 } },
          list: [1, 2],
        });
        await c.updateOne({ _id: 'u' }, { $set: { 'list.1': 20 } });
        expect((await c.findOne({ _id: 'u' }))?.list).toEqual([1, 20]);
      });

      it('reports no modification when nothing changes', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', a: 1, tags: ['x'] });
        expect(await c.updateOne({ _id: 'u' }, { $set: { a: 1 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await c.updateOne({ _id: 'u' }, { $unset: { nope: '' } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await c.updateOne({ _id: 'u' }, { $addToSet: { tags: 'x' } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await c.updateOne({ _id: 'nope' }, { $set: { a: 1 } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await c.countDocuments()).toBe(1);
      });

      it('$unset removes fields, also dotted', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', a: 1, b: 2, n: { x: 1, y: 2 } });
        await c.updateOne({ _id: 'u' }, { $unset: { a: '', 'n.x': 1 } });
        expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', b: 2, n: { y: 2 } });
      });

      it('$inc adds, creating missing fields, and refuses non-numbers', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', n: 5, s: 'text' });
        await c.updateOne({ _id: 'u' }, { $inc: { n: -2, created: 3, 'stats.views': 1 } });
        expect(await c.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          n: 3,
          s: 'text',
          created: 3,
          stats: { views: 1 },
        });
        await c.updateOne({ _id: 'u' }, { $inc: { n: 0.5 } });
        expect((await c.findOne({ _id: 'u' }))?.n).toBe(3.5);
        await expect(c.updateOne({ _id: 'u' }, { $inc: { s: 1 } })).rejects.toThrow();
        expect((await c.findOne({ _id: 'u' }))?.s).toBe('text');
      });

      it('$push appends (and $each), creating the array', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', list: ['a'] });
        await c.updateOne({ _id: 'u' }, { $push: { list: 'a', other: { k: 1 } } });
        await c.updateOne({ _id: 'u' }, { $push: { list: { $each: ['b', 'c'] } } });
        expect(await c.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          list: ['a', 'a', 'b', 'c'],
          other: [{ k: 1 }],
        });
        await c.insertOne({ _id: 'v', list: 'not an array' });
        await expect(c.updateOne({ _id: 'v' }, { $push: { list: 'x' } })).rejects.toThrow();
      });

      it('$pull removes every equal value, and documents matching a condition', async () => {
        const c = fresh();
        await c.insertOne({
          _id: 'u',
          tags: ['a', 'b', 'a', 'c'],
          nums: [1, 5, 8, 2],
          items: [
            { sku: 'x', qty: 1 },
            { sku: 'y', qty: 2 },
            { sku: 'x', qty: 3 },
          ],
        });
        const r = await c.updateOne(
          { _id: 'u' },
          { $pull: { tags: 'a', items: { sku: 'x' }, missing: 'z' } },
        );
        expect(r.modifiedCount).toBe(1);
        expect(await c.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          tags: ['b', 'c'],
          nums: [1, 5, 8, 2],
          items: [{ sku: 'y', qty: 2 }],
        });
        await c.updateOne({ _id: 'u' }, { $pull: { nums: { $gte: 5 } } });
        expect((await c.findOne({ _id: 'u' }))?.nums).toEqual([1, 2]);
      });

      it('$addToSet adds missing values only (and $each)', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', tags: ['a'], objs: [{ k: 1 }] });
        await c.updateOne({ _id: 'u' }, { $addToSet: { tags: 'b', objs: { k: 1 }, fresh: 'x' } });
        await c.updateOne({ _id: 'u' }, { $addToSet: { tags: { $each: ['a', 'c', 'c'] } } });
        expect(await c.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          tags: ['a', 'b', 'c'],
          objs: [{ k: 1 }],
          fresh: ['x'],
        });
      });

      it('updateOne changes one document; updateMany changes all matches', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', kind: 'a', n: 0 },
          { _id: '2', kind: 'a', n: 0 },
          { _id: '3', kind: 'b', n: 0 },
          { _id: '4', kind: 'a', n: 0, flag: true },
        ]);
        expect(await c.updateOne({ kind: 'a' }, { $inc: { n: 10 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedCount: 0,
        });
        expect(await c.countDocuments({ n: 10 })).toBe(1);
        expect(await c.countDocuments({ kind: 'a', n: 0 })).toBe(2);
        expect(await c.updateMany({ kind: 'a' }, { $set: { flag: true } })).toEqual({
          matchedCount: 3,
          modifiedCount: 2,
          upsertedCount: 0,
        });
        expect(sortedIds(await c.find({ flag: true }))).toEqual(['1', '2', '4']);
        expect(await c.findOne({ _id: '3' })).toEqual({ _id: '3', kind: 'b', n: 0 });
        expect(await c.updateMany({ kind: 'z' }, { $set: { n: 1 } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
        });
      });

      it('refuses to change _id, conflicting paths and operators outside the port', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', a: 1 });
        await expect(c.updateOne({ _id: 'u' }, { $set: { _id: 'other' } })).rejects.toThrow();
        await expect(c.updateOne({ _id: 'u' }, { $set: { a: 2 }, $inc: { a: 1 } })).rejects.toThrow();
        for (const op of ['$rename', '$min', '$max', '$mul', '$pop', '$currentDate']) {
          await expect(c.updateOne({ _id: 'u' }, { [op]: { a: 1 } } as never), op).rejects.toThrow(op);
        }
        await expect(c.updateOne({ _id: 'u' }, { $push: { l: { $each: [1], $slice: 1 } } })).rejects.toThrow(
          '$slice',
        );
        await expect(c.updateOne({ _id: 'u' }, { a: 5 } as never)).rejects.toThrow();
        expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', a: 1 });
      });

      it('accepts $set of _id to its own value (a whole document set back, as MongoDB does)', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'u', a: 1 });
        expect(await c.updateOne({ _id: 'u', a: 1 }, { $set: { _id: 'u', a: 2 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedCount: 0,
        });
        expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', a: 2 });
        await c.updateOne({ _id: 'n' }, { $set: { _id: 'n', b: 1 } }, { upsert: true });
        expect(await c.findOne({ _id: 'n' })).toEqual({ _id: 'n', b: 1 });
      });
    });

    describe('upserts', () => {
      it('creates the document from the filter equality fields, $set and $setOnInsert', async () => {
        const c = fresh();
        const r = await c.updateOne(
          { _id: 'k1', kind: 'counter', 'meta.source': 'import', level: { $eq: 2 }, n: { $gt: 5 } },
          { $set: { label: 'L' }, $setOnInsert: { createdAt: '2024-01-01' }, $inc: { hits: 1 } },
          { upsert: true },
        );
        expect(r).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
        expect(await c.findOne({ _id: 'k1' })).toEqual({
          _id: 'k1',
          kind: 'counter',
          meta: { source: 'import' },
          level: 2,
          label: 'L',
          createdAt: '2024-01-01',
          hits: 1,
        });
      });

      it('updates an existing document and ignores $setOnInsert', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'k1', kind: 'counter', createdAt: 'old', hits: 1 });
        const r = await c.updateOne(
          { _id: 'k1' },
          { $set: { label: 'new' }, $setOnInsert: { createdAt: 'new' }, $inc: { hits: 1 } },
          { upsert: true },
        );
        expect(r).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await c.findOne({ _id: 'k1' })).toEqual({
          _id: 'k1',
          kind: 'counter',
          createdAt: 'old',
          hits: 2,
          label: 'new',
        });
        expect(
          await c.updateOne({ _id: 'k1' }, { $setOnInsert: { createdAt: 'x' } }, { upsert: true }),
        ).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedCount: 0,
        });
      });

      it('takes equality fields from $and and gives the new document a string _id', async () => {
        const c = fresh();
        await c.updateOne(
          { $and: [{ email: 'a@x.io' }, { tenant: 't1' }] },
          { $set: { seen: 1 } },
          { upsert: true },
        );
        const doc = await c.findOne({ email: 'a@x.io' });
        expect(doc).toMatchObject({ email: 'a@x.io', tenant: 't1', seen: 1 });
        expect(typeof doc?._id).toBe('string');
        expect(await c.countDocuments()).toBe(1);
        await c.updateOne({ email: 'a@x.io', tenant: 't1' }, { $set: { seen: 2 } }, { upsert: true });
        expect(await c.countDocuments()).toBe(1);
        expect((await c.findOne({ email: 'a@x.io' }))?.seen).toBe(2);
      });

      it('without upsert nothing is created', async () => {
        const c = fresh();
        expect(await c.updateOne({ _id: 'x' }, { $set: { a: 1 } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await c.findOneAndUpdate({ _id: 'x' }, { $set: { a: 1 } })).toBeNull();
        expect(await c.countDocuments()).toBe(0);
      });
    });

    describe('findOneAndUpdate', () => {
      it('returns the document after the update', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'f', n: 1, tags: ['a'] });
        expect(await c.findOneAndUpdate({ _id: 'f' }, { $inc: { n: 1 }, $push: { tags: 'b' } })).toEqual({
          _id: 'f',
          n: 2,
          tags: ['a', 'b'],
        });
        expect(await c.findOne({ _id: 'f' })).toEqual({ _id: 'f', n: 2, tags: ['a', 'b'] });
      });

      it('upserts and returns the new document', async () => {
        const c = fresh();
        const doc = await c.findOneAndUpdate(
          { _id: 'seq', name: 'orders' },
          { $inc: { value: 1 }, $setOnInsert: { startedAt: 'now' } },
          { upsert: true },
        );
        expect(doc).toEqual({ _id: 'seq', name: 'orders', value: 1, startedAt: 'now' });
        const again = await c.findOneAndUpdate(
          { _id: 'seq', name: 'orders' },
          { $inc: { value: 1 } },
          { upsert: true },
        );
        expect(again).toEqual({ _id: 'seq', name: 'orders', value: 2, startedAt: 'now' });
        expect(isPlainTree(again)).toBe(true);
      });

      it('picks the first match in sort order', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: 'j1', state: 'ready', priority: 2 },
          { _id: 'j2', state: 'ready', priority: 9 },
          { _id: 'j3', state: 'done', priority: 10 },
          { _id: 'j4', state: 'ready', priority: 5 },
        ]);
        const top = await c.findOneAndUpdate(
          { state: 'ready' },
          { $set: { state: 'taken' } },
          { sort: { priority: -1 } },
        );
        expect(top).toEqual({ _id: 'j2', state: 'taken', priority: 9 });
        const low = await c.findOneAndUpdate(
          { state: 'ready' },
          { $set: { state: 'taken' } },
          { sort: { priority: 1 } },
        );
        expect(low?._id).toBe('j1');
      });

      it('is atomic: 50 concurrent increments end at 50, each seeing its own value', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'counter', n: 0 });
        const results = await Promise.all(
          Array.from({ length: 50 }, () => c.findOneAndUpdate({ _id: 'counter' }, { $inc: { n: 1 } })),
        );
        expect((await c.findOne({ _id: 'counter' }))?.n).toBe(50);
        expect(results.map((r) => r?.n as number).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 50 }, (_, i) => i + 1),
        );
      });

      it('is atomic: concurrent claims take each document once', async () => {
        const c = fresh();
        await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `job${i}`, state: 'pending' })));
        const claims = await Promise.all(
          Array.from({ length: 30 }, (_, worker) =>
            c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'claimed', worker } }),
          ),
        );
        const taken = claims.filter((d) => d !== null);
        expect(taken).toHaveLength(10);
        expect(new Set(taken.map((d) => d?._id)).size).toBe(10);
        expect(await c.countDocuments({ state: 'claimed' })).toBe(10);
      });
    });

    describe('replaceOne', () => {
      it('replaces the whole document and keeps _id', async () => {
        const c = fresh();
        await c.insertOne({ _id: 'r', a: 1, b: 2 });
        expect(await c.replaceOne({ a: 1 }, { _id: 'r', c: 3 })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedCount: 0,
        });
        expect(await c.findOne({ _id: 'r' })).toEqual({ _id: 'r', c: 3 });
        expect(await c.replaceOne({ _id: 'r' }, { _id: 'r', c: 3 })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await c.replaceOne({ _id: 'none' }, { _id: 'none', c: 3 })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        await expect(c.replaceOne({ _id: 'r' }, { _id: 'changed', c: 4 })).rejects.toThrow();
        expect(await c.find({})).toEqual([{ _id: 'r', c: 3 }]);
      });

      it('upserts the replacement', async () => {
        const c = fresh();
        expect(await c.replaceOne({ _id: 'n' }, { _id: 'n', v: 1 }, { upsert: true })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 1,
        });
        expect(await c.findOne({ _id: 'n' })).toEqual({ _id: 'n', v: 1 });
      });
    });

    describe('deletes and drop', () => {
      it('deleteOne removes one match, deleteMany all matches', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', k: 'a' },
          { _id: '2', k: 'a' },
          { _id: '3', k: 'b' },
          { _id: '4', k: 'c' },
          { _id: '5', k: 'c' },
        ]);
        expect(await c.deleteOne({ k: 'a' })).toEqual({ deletedCount: 1 });
        expect(await c.countDocuments({ k: 'a' })).toBe(1);
        expect(await c.deleteOne({ k: 'zz' })).toEqual({ deletedCount: 0 });
        expect(await c.deleteMany({ k: { $in: ['a', 'b'] } })).toEqual({ deletedCount: 2 });
        expect(sortedIds(await c.find({}))).toEqual(['4', '5']);
        expect(await c.deleteMany({ k: 'zz' })).toEqual({ deletedCount: 0 });
        expect(await c.deleteMany()).toEqual({ deletedCount: 2 });
        expect(await c.countDocuments()).toBe(0);
      });

      it('drop removes every document and keeps the indexes', async () => {
        const c = fresh();
        await c.createIndex({ email: 1 }, { unique: true });
        await c.insertMany([
          { _id: '1', email: 'a' },
          { _id: '2', email: 'b' },
        ]);
        await c.drop();
        expect(await c.countDocuments()).toBe(0);
        expect(await c.find({})).toEqual([]);
        await c.insertOne({ _id: '1', email: 'a' });
        await expect(c.insertOne({ _id: '3', email: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
      });
    });

    describe('indexes', () => {
      it('a unique index refuses duplicates on insert, update and upsert', async () => {
        const c = fresh();
        await c.createIndex({ email: 1 }, { unique: true });
        await c.createIndex({ email: 1 }, { unique: true }); // idempotent
        await c.insertOne({ _id: '1', email: 'a@x.io' });
        await c.insertOne({ _id: '2', email: 'b@x.io' });
        await expect(c.insertOne({ _id: '3', email: 'a@x.io' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(c.updateOne({ _id: '2' }, { $set: { email: 'a@x.io' } })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(c.findOneAndUpdate({ _id: '2' }, { $set: { email: 'a@x.io' } })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(c.replaceOne({ _id: '2' }, { _id: '2', email: 'a@x.io' })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(
          c.updateOne({ _id: '9' }, { $set: { email: 'b@x.io' } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(c.updateMany({}, { $set: { email: 'same' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.countDocuments({ email: 'same' })).toBe(1);
        expect(await c.countDocuments()).toBe(2);
        expect(await c.findOne({ _id: '1' })).toMatchObject({ email: expect.any(String) });
      });

      it('answers indexed queries exactly as unindexed ones (equality, $in, ranges, arrays, compound prefixes)', async () => {
        const docs = [
          { _id: '1', topic: 't1', offset: 1, tags: [1, 5, 9], on: true },
          { _id: '2', topic: 't1', offset: 2, tags: [2], on: false },
          { _id: '3', topic: 't2', offset: 1, tags: [], on: true },
          { _id: '4', topic: 't2', offset: 2, tags: 'x', on: true },
          { _id: '5', topic: 't2', offset: 3, on: false },
        ];
        const plain = fresh();
        const indexed = fresh();
        await indexed.createIndex({ topic: 1, offset: 1 }, { unique: true });
        await indexed.createIndex({ tags: 1 });
        await indexed.createIndex({ on: 1, offset: -1 });
        await plain.insertMany(docs);
        await indexed.insertMany(docs);
        const filters: Filter[] = [
          { topic: 't2', offset: { $gt: 1 } },
          { topic: 't1', offset: 2 },
          { offset: { $gte: 2, $lt: 3 } },
          { tags: { $gt: 0 } },
          { tags: { $lte: 5 } },
          { tags: 5 },
          { tags: { $in: [2, 9, 'x'] } },
          { on: false, offset: { $lt: 3 } },
          { $and: [{ topic: 't2' }, { on: true }] },
          { topic: { $in: ['t1', 't3'] }, tags: { $gt: 4 } },
        ];
        for (const filter of filters) {
          const want = await plain.find(filter, { sort: { _id: 1 } });
          expect(await indexed.find(filter, { sort: { _id: 1 } }), JSON.stringify(filter)).toEqual(want);
          expect(await indexed.countDocuments(filter), JSON.stringify(filter)).toBe(want.length);
        }
        expect((await indexed.find({ tags: { $gt: 0 } })).map((d) => d._id).sort()).toEqual(['1', '2']);
      });

      it('pages a range sorted on its indexed field exactly as unindexed (topics interleaved, both directions, arrays, other types)', async () => {
        const docs: Loose[] = [];
        for (let i = 1; i <= 300; i++) {
          docs.push({ _id: `a${String(i).padStart(4, '0')}`, topic: 'a', offset: i });
          if (i % 3 === 0) docs.push({ _id: `b${String(i).padStart(4, '0')}`, topic: 'b', offset: i / 3 });
        }
        docs.push({ _id: 'x2', topic: 'a', offset: '7' }, { _id: 'x3', topic: 'b', offset: true });
        docs.push({ _id: 'x4', topic: 'a' }, { _id: 'x5', topic: 'b', offset: null });
        const plain = fresh();
        const indexed = fresh();
        const withArray = fresh();
        for (const c of [indexed, withArray]) {
          await c.createIndex({ topic: 1, offset: 1 }, { unique: true });
          await c.createIndex({ offset: 1 });
          await c.createIndex({ topic: 1 });
        }
        // An array is one index key per element: none may equal another document's {topic, offset} under the
        // unique index (MongoDB refuses [5, 400] next to {topic: 'a', offset: 5} with E11000).
        const array = { _id: 'x1', topic: 'a', offset: [5.5, 400] };
        await plain.insertMany(docs);
        await indexed.insertMany(docs);
        await withArray.insertMany([...docs, array]);
        const plainWithArray = fresh();
        await plainWithArray.insertMany([...docs, array]);
        const cases: Array<[Filter, 1 | -1, number, number]> = [
          [{ topic: 'b', offset: { $gt: 20 } }, 1, 10, 0],
          [{ topic: 'a', offset: { $gt: 100 } }, 1, 50, 5],
          [{ topic: 'a', offset: { $gte: 2, $lt: 40 } }, -1, 7, 0],
          [{ topic: 'a', offset: { $gt: 390 } }, 1, 5, 0],
          [{ topic: 'a', offset: { $lt: 10 } }, 1, 20, 0],
          [{ offset: { $gt: '' } }, 1, 3, 0],
          [{ _id: { $gt: 'a0290' } }, 1, 20, 0],
          [{ _id: { $lte: 'b0100' }, topic: 'b' }, -1, 4, 1],
          [{ topic: 'c', offset: { $gt: 0 } }, 1, 10, 0],
        ];
        for (const [filter, dir, limit, skip] of cases) {
          const field = '_id' in filter ? '_id' : 'offset';
          const options = { sort: { [field]: dir }, limit, skip };
          const want = await plain.find(filter, options);
          expect(await indexed.find(filter, options), JSON.stringify([filter, options])).toEqual(want);
          const wantWithArray = await plainWithArray.find(filter, options);
          expect(await withArray.find(filter, options), JSON.stringify([filter, options])).toEqual(
            wantWithArray,
          );
        }
      });

      it('a compound unique index is unique across the whole key', async () => {
        const c = fresh();
        await c.createIndex({ tenant: 1, slug: 1 }, { unique: true });
        await c.insertOne({ _id: '1', tenant: 't1', slug: 'home' });
        await c.insertOne({ _id: '2', tenant: 't1', slug: 'about' });
        await c.insertOne({ _id: '3', tenant: 't2', slug: 'home' });
        await expect(c.insertOne({ _id: '4', tenant: 't1', slug: 'home' })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(c.updateOne({ _id: '3' }, { $set: { tenant: 't1' } })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await c.updateOne({ _id: '3' }, { $set: { tenant: 't3' } });
        expect(await c.countDocuments()).toBe(3);
      });

      it('a unique index counts a missing field as null', async () => {
        const c = fresh();
        await c.createIndex({ code: 1 }, { unique: true });
        await c.insertOne({ _id: '1', name: 'no code' });
        await expect(c.insertOne({ _id: '2', name: 'no code either' })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(c.insertOne({ _id: '3', code: null })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.insertOne({ _id: '4', code: 'c4' });
        expect(await c.countDocuments()).toBe(2);
      });

      it('creating a unique index over duplicates fails with DuplicateKeyError', async () => {
        const c = fresh();
        await c.insertMany([
          { _id: '1', k: 'same' },
          { _id: '2', k: 'same' },
        ]);
        await expect(c.createIndex({ k: 1 }, { unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.insertOne({ _id: '3', k: 'same' });
        await c.createIndex({ k: 1 }); // a plain index is fine
        expect(await c.countDocuments({ k: 'same' })).toBe(3);
      });
    });

    if (options.persistent) {
      it('keeps documents and indexes across close and reopen', async () => {
        const name = `t${run}_persist`;
        const first = await makeStore();
        const c1 = first.collection<Loose>(name);
        await c1.createIndex({ email: 1 }, { unique: true });
        await c1.insertMany([
          { _id: '1', email: 'a', n: 0 },
          { _id: '2', email: 'b', n: 0 },
          { _id: '3', email: 'c', n: 0 },
        ]);
        await c1.updateOne({ _id: '1' }, { $inc: { n: 5 } });
        await c1.deleteOne({ _id: '2' });
        await first.close();

        const second = await makeStore();
        try {
          const c2 = second.collection<Loose>(name);
          expect(await c2.find({}, { sort: { _id: 1 } })).toEqual([
            { _id: '1', email: 'a', n: 5 },
            { _id: '3', email: 'c', n: 0 },
          ]);
          await expect(c2.insertOne({ _id: '4', email: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
          await c2.drop();
        } finally {
          await second.close();
        }
        const third = await makeStore();
        try {
          const c3 = third.collection<Loose>(name);
          expect(await c3.countDocuments()).toBe(0);
          // drop keeps the indexes, across a reopen too.
          await c3.insertOne({ _id: '5', email: 'a' });
          await expect(c3.insertOne({ _id: '6', email: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
          expect(await c3.countDocuments({ email: 'a' })).toBe(1);
        } finally {
          await third.close();
        }
      });
    }
  });
}

// ------------------------------------------------------------------------------------------------
// The adapters

describeStoreContract('embedded (in memory)', async () => createEmbeddedStore({}));

describe('embedded (directory)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nudge-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describeStoreContract('embedded (directory)', async () => createEmbeddedStore({ dir }), {
    persistent: true,
  });

  /** The database file and its write-ahead log, in bytes. */
  const onDisk = (): number =>
    [STORE_FILE, `${STORE_FILE}-wal`].reduce(
      (n, f) => n + (existsSync(join(dir, f)) ? statSync(join(dir, f)).size : 0),
      0,
    );

  it('keeps every collection in <dir>/store.sqlite, readable after close and reopen', async () => {
    const store = createEmbeddedStore({ dir });
    const c = store.collection<Loose>('files_check');
    await c.insertOne({ _id: 'a', n: 0 });
    for (let i = 0; i < 5; i++) await c.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
    await store.close();
    expect(existsSync(join(dir, STORE_FILE))).toBe(true);
    // Closing checkpoints the write-ahead log into the database and empties it (a stopped process leaves no WAL).
    const wal = join(dir, `${STORE_FILE}-wal`);
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    expect(() => store.collection('x')).toThrow(/closed/);
    await expect(c.findOne({ _id: 'a' })).rejects.toThrow(/closed/);
    const reopened = createEmbeddedStore({ dir });
    expect(await reopened.collection<Loose>('files_check').find({})).toEqual([{ _id: 'a', n: 5 }]);
    await reopened.close();
  });

  it('records its data format in a new folder and refuses, saying why, a folder written in another format or none', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nudge-store-format-'));
    const file = join(folder, STORE_FILE);
    const userVersion = () => {
      const db = new Database(file);
      const { user_version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
      db.close();
      return user_version;
    };
    const setUserVersion = (version: number) => {
      const db = new Database(file);
      db.exec(`PRAGMA user_version = ${version}`);
      db.close();
    };
    try {
      const store = createEmbeddedStore({ dir: folder });
      await store.collection<Loose>('kept').insertOne({ _id: 'a', n: 1 });
      await store.close();
      expect(userVersion()).toBe(DATA_FORMAT);
      const reopened = createEmbeddedStore({ dir: folder });
      expect(await reopened.collection<Loose>('kept').find({})).toEqual([{ _id: 'a', n: 1 }]);
      await reopened.close();

      for (const [version, says] of [
        [DATA_FORMAT + 1, `in data format ${DATA_FORMAT + 1}`],
        [0, 'with no data format recorded'],
      ] as const) {
        setUserVersion(version);
        const refusal = (() => {
          try {
            createEmbeddedStore({ dir: folder });
          } catch (err) {
            return err;
          }
          return undefined;
        })();
        expect(refusal).toBeInstanceOf(DataFormatError);
        expect((refusal as Error).message).toContain(`The data folder ${folder} was written ${says}`);
        expect((refusal as Error).message).toContain(`reads data format ${DATA_FORMAT} only`);
        // Nothing was changed: the recorded format stays what it was.
        expect(userVersion()).toBe(version);
      }
      setUserVersion(DATA_FORMAT);
      const again = createEmbeddedStore({ dir: folder });
      expect(await again.collection<Loose>('kept').find({})).toEqual([{ _id: 'a', n: 1 }]);
      await again.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps the files proportional to the live data when one large document is rewritten again and again', async () => {
    const store = createEmbeddedStore({ dir });
    const c = store.collection<Loose>('big_check');
    const before = onDisk();
    const ids: string[] = [];
    for (let i = 0; i < 600; i++) {
      ids.push(`post-${String(i).padStart(20, '0')}`);
      await c.replaceOne({ _id: 'order' }, { _id: 'order', ids }, { upsert: true });
    }
    expect((await c.findOne({ _id: 'order' }))?.ids).toHaveLength(600);
    await store.close();
    // Every rewrite kept: about 28 * (1 + ... + 600) = 5 MB; one copy is about 17 KB.
    expect(onDisk() - before).toBeLessThan(3 * 1024 * 1024);
  });

  it('has every acknowledged write on disk, also when many arrive at once (a second connection sees them)', async () => {
    const store = createEmbeddedStore({ dir });
    const c = store.collection<Loose>('group_check');
    await Promise.all(Array.from({ length: 300 }, (_, i) => c.insertOne({ _id: `g${i}`, n: i })));
    await c.updateOne({ _id: 'g7' }, { $set: { n: -7 } });
    // Another store on the same folder while the first is still open (and never closed: as after a crash).
    const other = createEmbeddedStore({ dir });
    expect(await other.collection<Loose>('group_check').countDocuments({})).toBe(300);
    expect(await other.collection<Loose>('group_check').findOne({ _id: 'g7' })).toEqual({ _id: 'g7', n: -7 });
    await other.close();
    await store.close();
  });

  it('keeps the files small while many updates rewrite a few documents', async () => {
    const store = createEmbeddedStore({ dir });
    const c = store.collection<Loose>('busy_check');
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `d${i}`, n: 0 })));
    const before = onDisk();
    for (let i = 0; i < 12_000; i++) await c.updateOne({ _id: `d${i % 10}` }, { $inc: { n: 1 } });
    expect(await c.findOne({ _id: 'd3' })).toEqual({ _id: 'd3', n: 1_200 });
    // The write-ahead log is checkpointed and reused; the database file holds the 10 live documents.
    expect(onDisk() - before).toBeLessThan(17 * 1024 * 1024);
    await store.close();
    expect(statSync(join(dir, STORE_FILE)).size - before).toBeLessThan(256 * 1024);
  });
});

const mongoUrlFromEnv = process.env.MONGODB_URL;
const dockerReachable = Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
const mongoAvailable = Boolean(mongoUrlFromEnv) || dockerReachable;
if (!mongoAvailable)
  console.log('[contract] document store / mongodb: skipped: no MONGODB_URL and no Docker engine');

describe.runIf(mongoAvailable)('mongodb', () => {
  const dbName = `nudge_contract_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let url = '';
  let container: { stop(): Promise<unknown> } | undefined;

  beforeAll(async () => {
    if (mongoUrlFromEnv) {
      url = mongoUrlFromEnv;
      console.log('[contract] document store / mongodb: using MONGODB_URL');
    } else {
      const { MongoDBContainer } = await import('@testcontainers/mongodb');
      const started = await new MongoDBContainer('mongo:8.0').start();
      container = started;
      url = `${started.getConnectionString()}/?directConnection=true`;
      console.log('[contract] document store / mongodb: using a testcontainers MongoDB');
    }
  }, 180_000);

  afterAll(async () => {
    if (url) await dropMongoDatabase(url, dbName);
    await container?.stop();
  }, 60_000);

  describeStoreContract('mongodb', () => createMongoStore({ url, dbName }), { persistent: true });

  it('records its data format in a new database and refuses one written in another format or none', async () => {
    const name = `${dbName}_format`;
    try {
      const store = await createMongoStore({ url, dbName: name });
      await store.collection<Loose>('kept').insertOne({ _id: 'a', n: 1 });
      await store.close();
      const meta = async (update: (c: Collection<Loose>) => Promise<unknown>) => {
        const s = await createMongoStore({ url, dbName: name });
        await update(s.collection<Loose>('nudge_meta'));
        await s.close();
      };
      await meta(async (c) =>
        expect(await c.findOne({ _id: 'format' })).toEqual({ _id: 'format', version: DATA_FORMAT }),
      );
      await meta((c) => c.updateOne({ _id: 'format' }, { $set: { version: DATA_FORMAT + 1 } }));
      await expect(createMongoStore({ url, dbName: name })).rejects.toThrow(
        `The MongoDB database ${name} was written in data format ${DATA_FORMAT + 1}`,
      );
      const raw = await createMongoStore({ url, dbName: `${name}_raw` });
      await raw.collection<Loose>('kept').insertOne({ _id: 'a' });
      await raw.collection<Loose>('nudge_meta').deleteMany({});
      await raw.close();
      await expect(createMongoStore({ url, dbName: `${name}_raw` })).rejects.toBeInstanceOf(DataFormatError);
    } finally {
      await dropMongoDatabase(url, name);
      await dropMongoDatabase(url, `${name}_raw`);
    }
  });
});
