/**
 * The embedded document store: one @seald-io/nedb datastore per collection, a file `<dir>/<name>.db`
 * (or in memory without `dir`). nedb persists, indexes and enforces unique keys; matching, sorting,
 * projection and updates are evaluated by ./query with MongoDB semantics, so repositories behave the
 * same as on MongoDB. Every operation on a collection runs in one queue per collection, which makes
 * findOneAndUpdate (and every other read-modify-write) atomic within the process.
 */
import { type FileHandle, open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Datastore from '@seald-io/nedb';
import { DuplicateKeyError } from '../errors';
import { newId } from '../ids';
import {
  assertFilterDefined,
  cloneValue,
  compileFilter,
  compileProjection,
  compileUpdate,
  isPlainObject,
  type Predicate,
  seedFromFilter,
  sortDocs,
  uniqueKeyFilter,
  valuesEqual,
} from './query';
import type {
  Collection,
  Doc,
  DocumentStore,
  Filter,
  FindOptions,
  Sort,
  Update,
  UpdateResult,
} from './types';

export interface EmbeddedStoreOptions {
  /** Folder holding one `<collection>.db` file per collection; omit for an in-memory store (tests). */
  dir?: string;
  /** How often datafiles are compacted (nedb appends every write). Default 5 minutes. */
  compactEveryMs?: number;
}

type Raw = Record<string, unknown>;

/** nedb's serializer (the datafile's line format), from the module its persistence uses. */
const nedbModel = createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as {
  serialize(doc: unknown): string;
  getDotValue(doc: unknown, field: string): unknown;
};

/**
 * nedb's index class, taught to remember whether it ever indexed an array value (a document then sits under
 * several keys, so the index's order is not MongoDB's sort order for it: pageInIndexOrder stays off).
 */
const NedbIndexClass = createRequire(import.meta.url)('@seald-io/nedb/lib/indexes.js') as {
  prototype: { insert(doc: unknown): void; _fields?: string[]; holdsArrays?: boolean };
};
const nedbInsert = NedbIndexClass.prototype.insert;
NedbIndexClass.prototype.insert = function insert(this: { _fields?: string[]; holdsArrays?: boolean }, doc) {
  if (!this.holdsArrays && this._fields?.length === 1) {
    const field = this._fields[0] as string;
    for (const d of Array.isArray(doc) ? doc : [doc]) {
      if (d && typeof d === 'object' && Array.isArray(nedbModel.getDotValue(d, field)))
        this.holdsArrays = true;
    }
  }
  return nedbInsert.call(this, doc);
};

/** The parts of nedb's persistence (lib/persistence.js) the append path replaces. */
interface NedbPersistence {
  inMemoryOnly: boolean;
  filename: string;
  modes: { fileMode: number };
  persistNewStateAsync(docs: unknown[]): Promise<void>;
}

/** nedb's index (lib/indexes.js): an AVL tree from key to documents. */
interface NedbIndex {
  fieldName: string;
  /** Set once an array value was indexed (see NedbIndexClass). */
  holdsArrays?: boolean;
  unique: boolean;
  getMatching(value: unknown): Raw[];
  getBetweenBounds(query: Record<string, unknown>): Raw[];
}

type IndexKey = string | number | boolean;
const isIndexKey = (v: unknown): v is IndexKey =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));
const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);
/** Candidates few enough that narrowing them further by a range is not worth walking the range. */
const SMALL_ENOUGH = 64;

/** The filter's per-field conditions that must all hold: its top-level fields and those of top-level $and. */
function indexableConditions(filter: Filter): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) if (isPlainObject(part)) out.push(...indexableConditions(part));
    } else if (!key.startsWith('$')) out.push([key, value]);
  }
  return out;
}

/** Appended datafile lines below which no compaction is triggered by writes (the periodic one still runs). */
const COMPACT_AFTER_LINES = 5_000;
/** Appended bytes (characters) below which no compaction is triggered by writes. */
const COMPACT_AFTER_BYTES = 4 * 1024 * 1024;

/** A node of nedb's index tree (@seald-io/binary-search-tree): a key, its documents, two subtrees. */
interface IndexNode {
  key: unknown;
  data: Raw[];
  left?: IndexNode | null;
  right?: IndexNode | null;
  getLowerBoundMatcher(query: Record<string, unknown>): (key: unknown) => boolean;
  getUpperBoundMatcher(query: Record<string, unknown>): (key: unknown) => boolean;
}

/** The tree's own bound tests for a range condition: is a key above the lower bound, below the upper one. */
function boundsMatcher(tree: IndexNode, range: Record<string, unknown>) {
  return { aboveLower: tree.getLowerBoundMatcher(range), belowUpper: tree.getUpperBoundMatcher(range) };
}

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

/** Runs tasks one after another. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

const isUniqueViolation = (err: unknown): err is Error & { key?: unknown } =>
  typeof err === 'object' && err !== null && (err as { errorType?: unknown }).errorType === 'uniqueViolated';

/** Every open embedded collection of this process (for embeddedStoreStats). */
const openCollections = new Set<EmbeddedCollection<Doc>>();

/**
 * What the open embedded collections of this process hold in memory (nedb keeps every document in memory):
 * per collection its folder, name and document count, largest first. For the bench's memory breakdown.
 */
export function embeddedStoreStats(): Array<{ dir: string; name: string; docs: number; jsonBytes: number }> {
  return [...openCollections]
    .map((c) => ({ dir: c.dir, name: c.name, ...c.size() }))
    .sort((a, b) => b.jsonBytes - a.jsonBytes);
}

class EmbeddedCollection<T extends Doc> implements Collection<T> {
  private readonly queue = new Queue();
  private readonly db: Datastore<Raw>;
  private readonly loaded: Promise<void>;
  private readonly timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Single-field indexes made to serve a compound index's fields (see createIndex). */
  private readonly servingOnly = new Set<string>();
  /** Plain (not unique) compound indexes: declared, served by their fields' own indexes (see createIndex). */
  private readonly declaredOnly = new Map<string, boolean>();

  constructor(
    readonly name: string,
    private readonly filename: string | undefined,
    compactEveryMs: number,
  ) {
    this.db = new Datastore<Raw>(filename ? { filename } : { inMemoryOnly: true });
    openCollections.add(this as unknown as EmbeddedCollection<Doc>);
    if (filename) this.keepDatafileOpen();
    // Every task awaits the load first; a datafile that cannot be read fails every operation (never hangs).
    this.loaded = this.db.loadDatabaseAsync();
    this.loaded.catch(() => undefined);
    if (filename) {
      // Our own timer rather than nedb's setAutocompactionInterval: it goes through the queue and is unref'd.
      this.timer = setInterval(() => {
        if (!this.closed) void this.queue.run(() => this.compact()).catch(() => undefined);
      }, compactEveryMs);
      this.timer.unref();
    }
  }

  /** The datafile, open for appending (nedb's own append opens and closes it for every write). */
  private datafile: Promise<FileHandle> | undefined;
  /** Lines nedb handed over and not yet written, and counters of batches queued and written. */
  private pendingLines = '';
  private queuedBatches = 0;
  private writtenBatches = 0;
  private writing: Promise<void> | null = null;
  private readonly durableWaiters: Array<{ upTo: number; resolve(): void; reject(err: unknown): void }> = [];

  /**
   * Group commit. nedb appends every write with fs.appendFile (an open, a write and a close) and runs the next
   * operation of the collection only after that; under load the file system was the largest cost left. Here nedb's
   * append only queues its lines; one writer appends whatever has queued meanwhile, in order, through a handle kept
   * open until the next compaction replaces the file; and an operation resolves to its caller only once its lines
   * are written (see exclusive), so an acknowledged write is in the file as before.
   */
  private keepDatafileOpen(): void {
    const persistence = (this.db as unknown as { persistence: NedbPersistence }).persistence;
    persistence.persistNewStateAsync = async (docs) => {
      let lines = '';
      // The adapter sets no serialization hooks, so a line is nedb's serialization itself.
      for (const doc of docs) lines += `${nedbModel.serialize(doc)}\n`;
      if (lines.length === 0) return;
      this.pendingLines += lines;
      this.appendedBytes += lines.length;
      this.queuedBatches += 1;
      this.writing ??= this.writePending(persistence);
    };
  }

  private async writePending(persistence: NedbPersistence): Promise<void> {
    try {
      while (this.pendingLines) {
        const lines = this.pendingLines;
        const upTo = this.queuedBatches;
        this.pendingLines = '';
        try {
          this.datafile ??= open(persistence.filename, 'a', persistence.modes.fileMode);
          await (await this.datafile).appendFile(lines, 'utf8');
          this.written(upTo);
        } catch (err) {
          this.written(upTo, err);
        }
      }
    } finally {
      this.writing = null;
    }
  }

  /** Settles the callers whose lines are in batches up to upTo. */
  private written(upTo: number, err?: unknown): void {
    this.writtenBatches = Math.max(this.writtenBatches, upTo);
    for (let i = this.durableWaiters.length - 1; i >= 0; i--) {
      const waiter = this.durableWaiters[i];
      if (!waiter || waiter.upTo > upTo) continue;
      this.durableWaiters.splice(i, 1);
      if (err === undefined) waiter.resolve();
      else waiter.reject(err);
    }
  }

  /** Resolves once the batches queued up to upTo are written (rejects if writing them failed). */
  private durable(upTo: number): Promise<void> {
    if (this.writtenBatches >= upTo) return Promise.resolve();
    return new Promise((resolve, reject) => this.durableWaiters.push({ upTo, resolve, reject }));
  }

  /** Lets queued lines finish and closes the append handle (before a compaction replaces the file). */
  private async closeDatafile(): Promise<void> {
    await this.writing;
    const handle = this.datafile;
    this.datafile = undefined;
    if (handle) await (await handle.catch(() => null))?.close();
  }

  /** Rewrites the append-only datafile with one line per live document. */
  private async compact(): Promise<void> {
    if (!this.filename) return;
    await this.loaded;
    await this.closeDatafile();
    await this.db.compactDatafileAsync();
    // The rewritten file holds everything queued so far.
    this.written(this.queuedBatches);
    this.appended = 0;
    this.appendedBytes = 0;
    this.compactedBytes = (await stat(this.filename).catch(() => ({ size: 0 }))).size;
    this.nextCheck = COMPACT_AFTER_LINES;
    this.compactionQueued = false;
  }

  /** Lines and bytes appended to the datafile since the last compaction (nedb appends every write). */
  private appended = 0;
  private appendedBytes = 0;
  /** The datafile's size right after the last compaction (about the live data's size). */
  private compactedBytes = 0;
  private compactionQueued = false;
  private nextCheck = COMPACT_AFTER_LINES;

  /**
   * Counts appended lines; once they outnumber the live documents twice over (and at least COMPACT_AFTER_LINES),
   * or the bytes appended are twice the file's size after the last compaction (and at least COMPACT_AFTER_BYTES:
   * one large document rewritten again and again), queues a compaction, so the file stays proportional to the live
   * data between the periodic ones.
   */
  private noteAppended(lines: number): void {
    if (!this.filename) return;
    this.appended += lines;
    if (this.compactionQueued) return;
    if (this.appendedBytes < Math.max(COMPACT_AFTER_BYTES, 2 * this.compactedBytes)) {
      if (this.appended < this.nextCheck) return;
      // Counting the live documents walks the _id index: do it once per COMPACT_AFTER_LINES / 5 lines at most.
      this.nextCheck = this.appended + COMPACT_AFTER_LINES / 5;
      if (this.appended < 2 * this.db.getAllData().length) return;
    }
    this.compactionQueued = true;
    void this.queue
      .run(() => this.compact())
      .catch(() => {
        this.compactionQueued = false;
      });
  }

  /** The folder of the datafile ('' in memory). */
  get dir(): string {
    return this.filename ? dirname(this.filename) : '';
  }

  /** Documents held (in memory, like every nedb collection), and their size as JSON text. */
  size(): { docs: number; jsonBytes: number } {
    const all = this.db.getAllData();
    let jsonBytes = 0;
    for (const doc of all) jsonBytes += JSON.stringify(doc).length;
    return { docs: all.length, jsonBytes };
  }

  // --- plumbing ------------------------------------------------------------------------------

  private exclusive<R>(task: () => Promise<R>): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`document store is closed (collection ${this.name})`));
    let upTo = 0;
    const done = this.queue.run(async () => {
      try {
        await this.loaded;
        return await task();
      } catch (err) {
        throw this.translate(err);
      } finally {
        upTo = this.queuedBatches;
      }
    });
    // The next operation runs while this one's lines are being written; its caller hears back once they are.
    return done.then(async (result) => {
      await this.durable(upTo);
      return result;
    });
  }

  private translate(err: unknown): unknown {
    if (err instanceof DuplicateKeyError) return err;
    if (isUniqueViolation(err)) {
      return new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.name} dup key: ${safeJson(err.key)}`,
      );
    }
    return err;
  }

  private get indexes(): Record<string, NedbIndex> {
    return (this.db as unknown as { indexes: Record<string, NedbIndex> }).indexes;
  }

  /**
   * The stored documents (nedb's own objects, never handed out) that can match the filter: the smallest set any
   * index offers for the filter's conditions on indexed fields (equality, $eq, $in, ranges, every field of a
   * compound index), or every document when no index applies. Always a superset of the matches: the exact
   * MongoDB predicate runs on each candidate afterwards.
   */
  private candidates(filter: Filter | undefined): Raw[] {
    if (!filter) return this.db.getAllData();
    const indexes = this.indexes;
    const conditions = indexableConditions(filter);
    let best: Raw[] | null = null;
    const consider = (docs: Raw[]) => {
      if (best === null || docs.length < best.length) best = docs;
    };
    const equalities = new Map<string, IndexKey>();
    const ranges: Array<[NedbIndex, Record<string, unknown>]> = [];
    for (const [field, condition] of conditions) {
      const index = indexes[field];
      if (isIndexKey(condition)) {
        equalities.set(field, condition);
        if (index) consider(index.getMatching(condition));
        continue;
      }
      if (!index || !isPlainObject(condition)) continue;
      const ops = Object.keys(condition);
      if (ops.length === 1 && ops[0] === '$eq' && isIndexKey(condition.$eq)) {
        equalities.set(field, condition.$eq);
        consider(index.getMatching(condition.$eq));
      } else if (
        ops.length === 1 &&
        ops[0] === '$in' &&
        Array.isArray(condition.$in) &&
        condition.$in.every(isIndexKey)
      ) {
        consider(index.getMatching(condition.$in));
      } else if (
        ops.length > 0 &&
        ops.every((op) => RANGE_OPERATORS.has(op) && isIndexKey(condition[op]) && condition[op] !== null)
      ) {
        ranges.push([index, condition]);
      }
    }
    // A range can hold most of the collection: walk it only when no equality already narrowed the search enough.
    for (const [index, condition] of ranges) {
      if (best !== null && (best as Raw[]).length <= SMALL_ENOUGH) break;
      // A document with an array value sits under several keys of the range: once is enough.
      consider([...new Set(index.getBetweenBounds(condition))]);
    }
    for (const [name, index] of Object.entries(indexes)) {
      if (!name.includes(',')) continue;
      const key: Raw = {};
      const fields = name.split(',');
      if (!fields.every((f) => equalities.has(f))) continue;
      for (const f of fields) key[f] = equalities.get(f);
      consider(index.getMatching(key));
    }
    return best ?? this.db.getAllData();
  }

  /**
   * A page in index order: `find({ ..., f: { $gt: x } }, { sort: { f: 1 }, limit })` on an indexed top-level
   * field walks f's index from the bound and stops at the page's end, instead of collecting and sorting the whole
   * range (a bus consumer's next page, a cursor over _id). Null when that does not apply or costs more than the
   * candidates an equality offers (then the general path runs). The range's bound is a string or a number, so
   * every match is of that type (MongoDB's type bracketing) and the index's order is MongoDB's order.
   */
  private pageInIndexOrder(
    filter: Filter | undefined,
    predicate: Predicate,
    opts: FindOptions,
  ): Raw[] | null {
    const limit = opts.limit ?? 0;
    const sortKeys = opts.sort ? Object.entries(opts.sort) : [];
    if (!filter || !limit || sortKeys.length !== 1) return null;
    const [field, dir] = sortKeys[0] as [string, number];
    const index = this.indexes[field];
    const range = filter[field];
    if (!index || index.holdsArrays || field.includes('.') || !isPlainObject(range)) return null;
    const ops = Object.keys(range);
    const bounds = ops.map((op) => range[op]);
    if (ops.length === 0 || !ops.every((op) => RANGE_OPERATORS.has(op))) return null;
    const type = typeof bounds[0];
    if ((type !== 'string' && type !== 'number') || !bounds.every((b) => typeof b === type)) return null;
    // Walking more documents than an equality's candidates would cost more than the general path.
    let budget = Number.POSITIVE_INFINITY;
    for (const [f, condition] of indexableConditions(filter)) {
      const other = this.indexes[f];
      if (other && f !== field && isIndexKey(condition))
        budget = Math.min(budget, other.getMatching(condition).length);
    }
    budget = Math.max(budget, 256);
    const want = (opts.skip ?? 0) + limit;
    const found: Raw[] = [];
    let visited = 0;
    let givenUp = false;
    const tree = (index as unknown as { tree: { tree: IndexNode } }).tree.tree;
    const within = boundsMatcher(tree, range);
    /** In-order (or reverse) walk of the keys within the range; false once the page is full or given up. */
    const giveUp = () => {
      givenUp = true;
      return false;
    };
    const walk = (node: IndexNode | null | undefined): boolean => {
      if (!node || !Object.hasOwn(node, 'key')) return true;
      const [first, second] = dir === 1 ? [node.left, node.right] : [node.right, node.left];
      const goFirst = dir === 1 ? within.aboveLower(node.key) : within.belowUpper(node.key);
      const goSecond = dir === 1 ? within.belowUpper(node.key) : within.aboveLower(node.key);
      if (goFirst && !walk(first)) return false;
      if (goFirst && goSecond) {
        // A key of another type (or an array value): its order is nedb's, not MongoDB's; the general path decides.
        if (typeof node.key !== type) return giveUp();
        for (const doc of node.data) {
          if (++visited > budget || doc[field] !== node.key) return giveUp();
          if (predicate(doc)) found.push(doc);
          if (found.length >= want) return false;
        }
      }
      return goSecond ? walk(second) : true;
    };
    walk(tree);
    return givenUp ? null : found.slice(opts.skip ?? 0);
  }

  /** The stored documents matching the predicate, sorted, skipped and limited (not copies: never hand them out). */
  private matchingStored(filter: Filter | undefined, predicate: Predicate, opts: FindOptions = {}): Raw[] {
    const hasSort = opts.sort !== undefined && Object.keys(opts.sort).length > 0;
    const start = opts.skip ?? 0;
    const limit = opts.limit ?? 0;
    const page = this.pageInIndexOrder(filter, predicate, opts);
    if (page) return page;
    const found: Raw[] = [];
    for (const doc of this.candidates(filter)) {
      if (!predicate(doc)) continue;
      found.push(doc);
      if (!hasSort && limit && found.length >= start + limit) break;
    }
    const ordered = hasSort ? sortDocs(found, opts.sort) : found;
    return limit ? ordered.slice(start, start + limit) : start ? ordered.slice(start) : ordered;
  }

  /** Copies of the matching documents (safe to hand out and to change). */
  private async matching(
    filter: Filter | undefined,
    predicate: Predicate,
    opts: FindOptions = {},
  ): Promise<Raw[]> {
    return this.matchingStored(filter, predicate, opts).map((doc) => cloneValue(doc));
  }

  /** MongoDB indexes a missing field as null; nedb tells them apart. Checks that case before a write. */
  private checkNullishUniqueKeys(doc: Raw): void {
    for (const index of Object.values(this.indexes)) {
      if (!index.unique || index.fieldName === '_id') continue;
      const fields = index.fieldName.split(',');
      const keyFilter = uniqueKeyFilter(doc, fields);
      if (!keyFilter) continue;
      const same = compileFilter(keyFilter);
      const clash = this.candidates(keyFilter).find((other) => other._id !== doc._id && same(other));
      if (clash) {
        throw new DuplicateKeyError(
          `E11000 duplicate key error collection: ${this.name} dup key: ${safeJson(keyFilter)}`,
        );
      }
    }
  }

  private async insertRaw(doc: Raw): Promise<void> {
    this.checkNullishUniqueKeys(doc);
    await this.db.insertAsync(doc);
    this.noteAppended(1);
  }

  private async replaceRaw(id: unknown, doc: Raw): Promise<void> {
    this.checkNullishUniqueKeys(doc);
    await this.db.updateAsync({ _id: id }, doc, {});
    this.noteAppended(1);
  }

  private prepareInsert(doc: T): Raw {
    if (!isPlainObject(doc)) throw new Error('A document has to be an object');
    const copy = cloneValue(doc) as Raw;
    if (copy._id === undefined || copy._id === null) return { _id: newId(), ...copy };
    return copy;
  }

  // --- the port ------------------------------------------------------------------------------

  async insertOne(doc: T): Promise<void> {
    const prepared = this.prepareInsert(doc);
    return this.exclusive(() => this.insertRaw(prepared));
  }

  async insertMany(docs: T[]): Promise<void> {
    const prepared = docs.map((d) => this.prepareInsert(d));
    return this.exclusive(async () => {
      for (const doc of prepared) await this.insertRaw(doc);
    });
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'skip' | 'limit'> = {}): Promise<T | null> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    const project = compileProjection(options.projection);
    return this.exclusive(async () => {
      const [doc] = await this.matching(filter, predicate, { sort: options.sort, limit: 1 });
      if (!doc) return null;
      return (project ? project(doc) : doc) as T;
    });
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    const project = compileProjection(options.projection);
    const skip = options.skip ?? 0;
    if (!Number.isInteger(skip) || skip < 0)
      throw new Error(`skip has to be a non-negative integer, got ${skip}`);
    const limit = options.limit === undefined ? 0 : Math.abs(options.limit);
    if (!Number.isInteger(limit)) throw new Error(`limit has to be an integer, got ${options.limit}`);
    return this.exclusive(async () => {
      const docs = await this.matching(filter, predicate, { sort: options.sort, skip, limit });
      return (project ? docs.map(project) : docs) as T[];
    });
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    return this.exclusive(async () => this.matchingStored(filter, predicate).length);
  }

  async updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    return this.updateFirst(filter, update, options).then((r) => r.result);
  }

  async findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: Sort } = {},
  ): Promise<T | null> {
    return this.updateFirst(filter, update, options).then((r) => r.doc as T | null);
  }

  private async updateFirst(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: Sort },
  ): Promise<{ result: UpdateResult; doc: Raw | null }> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    const apply = compileUpdate(update);
    return this.exclusive(async () => {
      // The stored document itself: apply works on a copy, and found is only compared with the result.
      const [found] = this.matchingStored(filter, predicate, { sort: options.sort, limit: 1 });
      if (found) {
        const next = apply(found, false);
        assertSameId(found, next);
        const modified = !valuesEqual(found, next);
        if (modified) await this.replaceRaw(found._id, next);
        return { result: { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 }, doc: next };
      }
      if (!options.upsert)
        return { result: { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 }, doc: null };
      const created = withId(apply(seedFromFilter(filter), true));
      await this.insertRaw(created);
      return { result: { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 }, doc: cloneValue(created) };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    const apply = compileUpdate(update);
    return this.exclusive(async () => {
      const found = this.matchingStored(filter, predicate);
      let modifiedCount = 0;
      for (const doc of found) {
        const next = apply(doc, false);
        assertSameId(doc, next);
        if (valuesEqual(doc, next)) continue;
        await this.replaceRaw(doc._id, next);
        modifiedCount += 1;
      }
      return { matchedCount: found.length, modifiedCount, upsertedCount: 0 };
    });
  }

  async replaceOne(filter: Filter, doc: T, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    if (!isPlainObject(doc)) throw new Error('A replacement has to be an object');
    if (Object.keys(doc).some((k) => k.startsWith('$')))
      throw new Error('Replacement document must not contain atomic operators');
    const replacement = cloneValue(doc) as Raw;
    return this.exclusive(async () => {
      const [found] = await this.matching(filter, predicate, { limit: 1 });
      if (found) {
        if (replacement._id !== undefined && !valuesEqual(replacement._id, found._id)) {
          throw new Error(
            "After applying the update, the (immutable) field '_id' was found to have been altered",
          );
        }
        const { _id, ...rest } = replacement;
        const next = { _id: found._id, ...rest };
        const modified = !valuesEqual(found, next);
        if (modified) await this.replaceRaw(found._id, next);
        return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 };
      }
      if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      const { _id, ...rest } = replacement;
      await this.insertRaw(withId({ _id: _id ?? seedFromFilter(filter)._id, ...rest }));
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    });
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    return this.exclusive(async () => {
      const [found] = await this.matching(filter, predicate, { limit: 1 });
      if (!found) return { deletedCount: 0 };
      const deletedCount = await this.db.removeAsync({ _id: found._id }, {});
      this.noteAppended(deletedCount);
      return { deletedCount };
    });
  }

  async deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    assertFilterDefined(filter);
    const predicate = compileFilter(filter);
    return this.exclusive(async () => {
      const ids =
        Object.keys(filter).length === 0 ? null : this.matchingStored(filter, predicate).map((d) => d._id);
      if (ids?.length === 0) return { deletedCount: 0 };
      const deletedCount = await this.db.removeAsync(ids ? { _id: { $in: ids } } : {}, { multi: true });
      this.noteAppended(deletedCount);
      return { deletedCount };
    });
  }

  async createIndex(keys: Record<string, 1 | -1>, options: { unique?: boolean } = {}): Promise<void> {
    const fields = Object.keys(keys);
    if (fields.length === 0) throw new Error('createIndex needs at least one key');
    for (const [field, dir] of Object.entries(keys)) {
      if (dir !== 1 && dir !== -1)
        throw new Error(`Unsupported index key type for '${field}': ${String(dir)} (use 1 or -1)`);
      if (field.split('.').some((p) => p === '' || p.startsWith('$')))
        throw new Error(`Invalid index key '${field}'`);
    }
    const unique = options.unique === true;
    const fieldName = fields.join(',');
    return this.exclusive(async () => {
      if (fieldName === '_id') return; // always there, always unique
      const declared = this.declaredOnly.get(fieldName);
      if (declared !== undefined) {
        if (declared !== unique)
          throw new Error(
            `An index on ${fieldName} already exists with different options (unique: ${declared})`,
          );
        return;
      }
      const compound = fields.length > 1;
      const existing = this.indexes[fieldName];
      if (existing && this.servingOnly.has(fieldName)) {
        // Created only to serve a compound index's field: the index asked for now replaces it.
        this.servingOnly.delete(fieldName);
        await this.db.removeIndexAsync(fieldName);
      } else if (existing) {
        if (existing.unique !== unique) {
          throw new Error(
            `An index on ${fieldName} already exists with different options (unique: ${existing.unique})`,
          );
        }
        if (!compound || unique) return;
        // A plain compound index an older version kept in nedb: its fields' own indexes serve it now.
        await this.db.removeIndexAsync(fieldName);
      }
      // nedb's compound index answers equality on all its fields only, and orders its keys by field name, not by
      // the index's field order, so it cannot serve a prefix or a range; and every write updates every index.
      // So each field of a compound index gets a plain index (`{stream}` or `{published: false}` are lookups,
      // `{topic, offset: {$gt: n}}` takes the smaller of the topic's messages and the messages past n, see
      // candidates), and nedb keeps a compound index only where it enforces uniqueness.
      if (!compound || unique)
        await this.db.ensureIndexAsync({ fieldName: compound ? fields : fieldName, unique });
      else this.declaredOnly.set(fieldName, false);
      if (compound) {
        for (const field of fields) {
          if (field === '_id' || this.indexes[field]) continue;
          await this.db.ensureIndexAsync({ fieldName: field });
          this.servingOnly.add(field);
        }
      }
    });
  }

  async drop(): Promise<void> {
    return this.exclusive(async () => {
      await this.db.removeAsync({}, { multi: true });
      await this.compact();
    });
  }

  /** Waits for queued work, compacts the datafile and stops the compaction timer. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.timer) clearInterval(this.timer);
    openCollections.delete(this as unknown as EmbeddedCollection<Doc>);
    const done = this.queue.run(async () => {
      const readable = await this.loaded.then(
        () => true,
        () => false,
      );
      if (readable) await this.compact();
    });
    this.closed = true;
    return done;
  }
}

function withId(doc: Raw): Raw {
  const { _id, ...rest } = doc;
  return { _id: _id ?? newId(), ...rest };
}

function assertSameId(before: Raw, after: Raw): void {
  if (!valuesEqual(before._id, after._id)) {
    throw new Error("Performing an update on the path '_id' would modify the immutable field '_id'");
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Creates the embedded store. Collections are opened lazily, on first use, and cached. */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): DocumentStore {
  const { dir } = options;
  const compactEveryMs = Math.max(options.compactEveryMs ?? 5 * 60_000, 5_000);
  const collections = new Map<string, EmbeddedCollection<Doc>>();
  let closed = false;

  return {
    kind: 'embedded',
    collection<T extends Doc = Doc>(name: string): Collection<T> {
      if (closed) throw new Error('document store is closed');
      let c = collections.get(name);
      if (!c) {
        if (!COLLECTION_NAME.test(name)) throw new Error(`Invalid collection name '${name}'`);
        c = new EmbeddedCollection<Doc>(name, dir ? join(dir, `${name}.db`) : undefined, compactEveryMs);
        collections.set(name, c);
      }
      return c as unknown as Collection<T>;
    },
    async ping(): Promise<void> {
      if (closed) throw new Error('document store is closed');
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...collections.values()].map((c) => c.close()));
      collections.clear();
    },
  };
}
