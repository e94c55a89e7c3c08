/**
 * The MongoDB document store: the port maps 1:1 onto the `mongodb` driver. Documents keep their string `_id`.
 * The client drops `undefined` fields (ignoreUndefined), like the embedded adapter. Filters and updates are
 * checked against the port's operator subset first (./query), so both adapters refuse the same things.
 * Only this file talks to the MongoDB engine.
 */
import {
  type Db,
  type Document,
  type Collection as DriverCollection,
  type Filter as DriverFilter,
  type FindOptions as DriverFindOptions,
  MongoClient,
  type MongoClientOptions,
  type UpdateFilter,
} from 'mongodb';
import { DuplicateKeyError } from '../errors';
import { newId } from '../ids';
import { DATA_FORMAT, mustRecordFormat } from './format';
import { assertFilterDefined, compileFilter, compileUpdate, idFromFilter, isPlainObject } from './query';
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

export interface MongoStoreOptions {
  url: string;
  dbName: string;
}

/** The driver's duplicate key error (code 11000, also inside bulk write errors) becomes DuplicateKeyError. */
function translate(err: unknown): unknown {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown; writeErrors?: { code?: unknown }[] };
    const isDup =
      e.code === 11000 || (Array.isArray(e.writeErrors) && e.writeErrors.some((w) => w?.code === 11000));
    if (isDup) return new DuplicateKeyError(typeof e.message === 'string' ? e.message : 'duplicate key');
  }
  return err;
}

async function run<R>(task: () => Promise<R>): Promise<R> {
  try {
    return await task();
  } catch (err) {
    throw translate(err);
  }
}

const withStringId = <D extends Document>(doc: D): D =>
  doc._id === undefined || doc._id === null ? { ...doc, _id: newId() } : doc;

/** An upsert that pins no `_id` would get an ObjectId from the server; give it a string id instead. */
function upsertWithStringId(filter: Filter, update: Update): Update {
  if (idFromFilter(filter) !== undefined) return update;
  if (update.$setOnInsert?._id !== undefined || update.$set?._id !== undefined) return update;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: newId() } };
}

function findOptions(options: FindOptions): DriverFindOptions {
  const out: DriverFindOptions = {};
  if (options.sort) out.sort = options.sort;
  if (options.skip !== undefined) out.skip = options.skip;
  if (options.limit !== undefined) out.limit = options.limit;
  if (options.projection) out.projection = options.projection;
  return out;
}

const result = (r: { matchedCount: number; modifiedCount: number; upsertedCount: number }): UpdateResult => ({
  matchedCount: r.matchedCount,
  modifiedCount: r.modifiedCount,
  upsertedCount: r.upsertedCount,
});

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly c: DriverCollection<Document>,
  ) {}

  /** Same checks as the embedded adapter: no undefined values, only the port's operators. */
  private f(filter: Filter | undefined): DriverFilter<Document> {
    assertFilterDefined(filter ?? {});
    compileFilter(filter);
    return (filter ?? {}) as DriverFilter<Document>;
  }

  private u(update: Update): UpdateFilter<Document> {
    compileUpdate(update);
    return update as UpdateFilter<Document>;
  }

  insertOne(doc: T): Promise<void> {
    return run(async () => {
      await this.c.insertOne(withStringId(doc as Document));
    });
  }

  insertMany(docs: T[]): Promise<void> {
    return run(async () => {
      if (docs.length === 0) return;
      await this.c.insertMany(
        docs.map((d) => withStringId(d as Document)),
        { ordered: true },
      );
    });
  }

  findOne(filter: Filter, options: Omit<FindOptions, 'skip' | 'limit'> = {}): Promise<T | null> {
    return run(async () => (await this.c.findOne(this.f(filter), findOptions(options))) as T | null);
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return run(
      async () => (await this.c.find(this.f(filter), findOptions(options)).toArray()) as unknown as T[],
    );
  }

  countDocuments(filter: Filter = {}): Promise<number> {
    return run(() => this.c.countDocuments(this.f(filter)));
  }

  updateOne(filter: Filter, update: Update, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    return run(async () => {
      const u = this.u(options.upsert ? upsertWithStringId(filter, update) : update);
      return result(await this.c.updateOne(this.f(filter), u, { upsert: options.upsert === true }));
    });
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return run(async () => result(await this.c.updateMany(this.f(filter), this.u(update))));
  }

  findOneAndUpdate(
    filter: Filter,
    update: Update,
    options: { upsert?: boolean; sort?: Sort } = {},
  ): Promise<T | null> {
    return run(async () => {
      const u = this.u(options.upsert ? upsertWithStringId(filter, update) : update);
      const doc = await this.c.findOneAndUpdate(this.f(filter), u, {
        returnDocument: 'after',
        upsert: options.upsert === true,
        ...(options.sort ? { sort: options.sort } : {}),
      });
      return doc as T | null;
    });
  }

  replaceOne(filter: Filter, doc: T, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    return run(async () => {
      let replacement: Document = doc;
      if (options.upsert && doc._id === undefined && idFromFilter(filter) === undefined)
        replacement = withStringId(doc);
      if (!isPlainObject(replacement)) throw new Error('A replacement has to be an object');
      return result(
        await this.c.replaceOne(this.f(filter), replacement, { upsert: options.upsert === true }),
      );
    });
  }

  deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return run(async () => ({ deletedCount: (await this.c.deleteOne(this.f(filter))).deletedCount }));
  }

  deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    return run(async () => ({ deletedCount: (await this.c.deleteMany(this.f(filter))).deletedCount }));
  }

  createIndex(keys: Record<string, 1 | -1>, options: { unique?: boolean } = {}): Promise<void> {
    return run(async () => {
      await this.c.createIndex(keys, options.unique ? { unique: true } : {});
    });
  }

  drop(): Promise<void> {
    return run(async () => {
      await this.c.deleteMany({});
    });
  }
}

/**
 * What a write waits for and how long a call may wait, unless the connection string says otherwise: a write is
 * acknowledged once a majority of the replica set journaled it (it survives a primary's failover), within 10 s; a
 * server is chosen within 10 s and a call that hears nothing for a minute fails, instead of a request hanging on a
 * replica set that lost its primary.
 */
export function mongoClientOptions(url: string): MongoClientOptions {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const given = new Set([...new URLSearchParams(query).keys()].map((k) => k.toLowerCase()));
  const unless = <T extends object>(keys: string[], value: T): T | object =>
    keys.some((k) => given.has(k.toLowerCase())) ? {} : value;
  return {
    ignoreUndefined: true,
    ...unless(['w', 'journal', 'wtimeoutMS'], {
      writeConcern: { w: 'majority', journal: true, wtimeoutMS: 10_000 },
    }),
    ...unless(['retryWrites'], { retryWrites: true }),
    ...unless(['serverSelectionTimeoutMS'], { serverSelectionTimeoutMS: 10_000 }),
    ...unless(['connectTimeoutMS'], { connectTimeoutMS: 10_000 }),
    ...unless(['socketTimeoutMS'], { socketTimeoutMS: 60_000 }),
  };
}

/** The collection holding the database's data format (`{ _id: 'format', version }`). */
const META = 'nudge_meta';

/**
 * Records the data format in a new (empty) database, else checks it. Two processes opening a new database at once
 * both upsert the same document.
 */
async function checkMongoFormat(db: Db, dbName: string): Promise<void> {
  const meta = db.collection<{ _id: string; version: number }>(META);
  const found = (await meta.findOne({ _id: 'format' }))?.version;
  const others = await db.listCollections({ name: { $ne: META } }, { nameOnly: true }).toArray();
  if (mustRecordFormat(`The MongoDB database ${dbName}`, found, others.length === 0))
    await meta.updateOne({ _id: 'format' }, { $setOnInsert: { version: DATA_FORMAT } }, { upsert: true });
}

/** Connects to MongoDB; `dbName` is the service's own database (e.g. `nudge_auth`). */
export async function createMongoStore(options: MongoStoreOptions): Promise<DocumentStore> {
  const client = new MongoClient(options.url, mongoClientOptions(options.url));
  await client.connect();
  const db: Db = client.db(options.dbName);
  try {
    await checkMongoFormat(db, options.dbName);
  } catch (err) {
    await client.close();
    throw err;
  }
  const collections = new Map<string, MongoCollection<Doc>>();
  return {
    kind: 'mongodb',
    collection<T extends Doc = Doc>(name: string): Collection<T> {
      let c = collections.get(name);
      if (!c) {
        c = new MongoCollection<Doc>(name, db.collection<Document>(name));
        collections.set(name, c);
      }
      return c as unknown as Collection<T>;
    },
    async ping(): Promise<void> {
      await db.command({ ping: 1 });
    },
    async close(): Promise<void> {
      await client.close();
    },
  };
}

/** Drops a whole database (tests use it to clean up their per-run database). */
export async function dropMongoDatabase(url: string, dbName: string): Promise<void> {
  const client = new MongoClient(url);
  try {
    await client.connect();
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}
