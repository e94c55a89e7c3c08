/**
 * The document store port: a strict subset of the MongoDB driver's collection API.
 * Filters and updates are MongoDB syntax; repositories are written once and run on every adapter.
 *
 * Supported filter operators: field equality (including dotted paths and array membership), $eq, $ne,
 * $gt, $gte, $lt, $lte, $in, $nin, $exists, $regex (string pattern, with $options 'i'), $and, $or.
 * Supported update operators: $set, $unset, $inc, $push, $pull (by value), $addToSet, $setOnInsert.
 * Anything else is a programming error: adapters throw on it rather than guess.
 */
export type Doc = { _id: string };

export type Filter = Record<string, unknown>;
export type Update = Partial<
  Record<
    '$set' | '$unset' | '$inc' | '$push' | '$pull' | '$addToSet' | '$setOnInsert',
    Record<string, unknown>
  >
>;
export type Sort = Record<string, 1 | -1>;
export type FieldProjection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
  projection?: FieldProjection;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  /** Throws DuplicateKeyError (from ../errors) when _id or a unique index is taken. */
  insertOne(doc: T): Promise<void>;
  /** Inserts in order; throws DuplicateKeyError at the first clash (earlier documents stay inserted). */
  insertMany(docs: T[]): Promise<void>;
  findOne(filter: Filter, options?: Omit<FindOptions, 'skip' | 'limit'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter?: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomically applies the update to the first match and returns the document after the update (or null). */
  findOneAndUpdate(
    filter: Filter,
    update: Update,
    options?: { upsert?: boolean; sort?: Sort },
  ): Promise<T | null>;
  replaceOne(filter: Filter, doc: T, options?: { upsert?: boolean }): Promise<UpdateResult>;
  deleteOne(filter: Filter): Promise<{ deletedCount: number }>;
  deleteMany(filter?: Filter): Promise<{ deletedCount: number }>;
  /** Idempotent. Keys are field paths with 1 or -1; unique across the whole key. */
  createIndex(keys: Record<string, 1 | -1>, options?: { unique?: boolean }): Promise<void>;
  /** Removes every document (and keeps the indexes). */
  drop(): Promise<void>;
}

export interface DocumentStore {
  /** The adapter's name, for logs and test titles: 'embedded' or 'mongodb'. */
  readonly kind: string;
  /**
   * True when writes issued one after another in one synchronous run (no await in between) are applied in that order
   * and made durable together: a crash or a failed commit loses all of them or none (the embedded store's group
   * commit). Absent (MongoDB): each write is durable on its own, so a writer that needs one write before another
   * awaits the first.
   */
  readonly groupCommit?: boolean;
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /** Checks the engine answers (for /readyz). */
  ping(): Promise<void>;
  /**
   * Makes content deleted or overwritten so far unrecoverable from the store's files now (an erasure): the embedded
   * store zeroes freed content as it goes and here checkpoints and truncates its write-ahead log. Absent: nothing to do.
   */
  scrub?(): Promise<void>;
  close(): Promise<void>;
}
