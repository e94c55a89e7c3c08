/**
 * The embedded document store on SQLite (libsql, a better-sqlite3 compatible binding): one database file per
 * store folder, `<dir>/store.sqlite` (WAL, synchronous=NORMAL: every acknowledged write survives a crash of the
 * process), or `:memory:` without a folder (tests). The documents live on disk behind SQLite's page cache, not in
 * V8's heap.
 *
 * A collection is a table `(_id PRIMARY KEY, doc TEXT)` holding each document as JSON. `createIndex` creates a
 * real SQLite index on the `json_extract(doc, '$.path')` expressions of its fields. A filter's conditions on
 * indexed fields (and on `_id`) are translated to SQL where that is exact or a safe over-approximation (equality,
 * $in, ranges with MongoDB's type bracketing), so SQLite looks candidates up through its indexes; `mingo` (./query)
 * then judges every candidate, so MongoDB's semantics (array membership, type order, $regex, $exists ...) stay
 * exact. A field that ever held an array (at any step of its path) is not translated: SQLite indexes one value per
 * document, MongoDB indexes each element. A sorted page (`sort` on an indexed field, optionally with `_id`, and a
 * limit) is read in index order from SQLite, one type bracket after another (null, numbers, strings), so a feed
 * page never loads the collection; fields that held arrays, embedded documents or booleans are sorted in JS.
 *
 * Unique indexes are checked by the adapter before each write with MongoDB's semantics (a missing field counts as
 * null, a compound index is unique across the whole key; an array is one key as a whole, as the contract suite
 * defines it), through the same indexed lookup. Every call runs synchronously inside the promise it returns (libsql does not yield), so findOneAndUpdate
 * and every read-modify-write are atomic within the process.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import Database from 'libsql';
import { resolve } from 'mingo/util';
import { DuplicateKeyError } from '../errors';
import { newId } from '../ids';
import { DATA_FORMAT, mustRecordFormat } from './format';
import {
  assertFilterDefined,
  compileFilter,
  compileProjection,
  compileUpdate,
  isPlainObject,
  type Predicate,
  seedFromFilter,
  sortDocs,
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
  /** Folder holding the store's database file `store.sqlite`; omit for an in-memory store (tests). */
  dir?: string;
}

/** The database file inside a store folder. */
export const STORE_FILE = 'store.sqlite';

type Raw = Record<string, unknown>;
type Db = InstanceType<typeof Database>;
type Param = string | number;
/** A prepared statement, as this module uses it. */
interface Stmt {
  run(params: Param[]): { changes: number };
  /** A reader's rows, as arrays of column values (raw mode, set once when prepared). */
  all(params: Param[]): unknown[][];
  get(params: Param[]): unknown[] | undefined;
  raw(on?: boolean): Stmt;
  readonly reader: boolean;
}

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;
/** Prepared statements kept per store (the least recently used is finalized beyond this). */
const STATEMENTS = 500;
/** Filter plans kept per collection, by shape (the oldest dropped beyond this). */
const PLANS = 200;
/** SQLite's page cache per store (KiB, as PRAGMA cache_size takes a negative number). */
const CACHE_KIB = 2 * 1024;
/** Documents kept per collection from its reads by `_id` (see EmbeddedCollection.storedById). */
const RECENT_DOCS = 1_000;
/** A document's JSON longer than this is not kept (the feed order's one large document, say). */
const RECENT_DOC_CHARS = 16 * 1024;
/** A read of more `_id`s than this at once goes to SQLite as it is, and keeps nothing. */
const RECENT_READ_IDS = 64;
/** How often the pages freed by deletions are returned to the file system. */
const VACUUM_EVERY_MS = 5 * 60_000;

const quoteId = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** The JSON path of a dotted field path, each step quoted (`$."a"."b"`), as an SQL string literal. */
const jsonPath = (field: string): string =>
  `'$${field
    .split('.')
    .map((p) => `."${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
    .join('')
    .replace(/'/g, "''")}'`;
/** The SQL expression of a field: the `_id` column, or the JSON value (the text an index is created on). */
const fieldExpr = (field: string): string =>
  field === '_id' ? '_id' : `json_extract(doc, ${jsonPath(field)})`;

const isOperatorObject = (v: unknown): v is Raw =>
  isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'));
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** What a document holds on a field path: an array somewhere along it, or the kind of its value. */
function shapeAt(doc: unknown, path: string): Shape {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(cur)) return 'array';
    if (!isPlainObject(cur)) return null;
    cur = cur[part];
  }
  if (Array.isArray(cur)) return 'array';
  if (typeof cur === 'boolean') return 'boolean';
  if (typeof cur === 'number') return 'number';
  return isPlainObject(cur) ? 'object' : null;
}

/**
 * What a field held besides strings and null, as SQL sees it: an array (not translated), a document (its JSON text
 * compares with strings), a boolean (1 or 0, compares with numbers), a number.
 */
type Shape = 'array' | 'object' | 'boolean' | 'number' | null;
type Held = ReadonlySet<Exclude<Shape, null>>;
const NOTHING_HELD: Held = new Set();

/** Where a value sits in a filter: the keys (and list positions) leading to it. */
type ParamPath = ReadonlyArray<string | number>;

/**
 * A filter's conditions that must all hold (its top-level fields and those of top-level $and), each with its path
 * in the filter.
 */
function conjuncts(
  filter: Filter,
  at: ParamPath = [],
): { fields: Array<[string, unknown, ParamPath]>; complete: boolean } {
  const fields: Array<[string, unknown, ParamPath]> = [];
  let complete = true;
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const [i, part] of value.entries()) {
        if (!isPlainObject(part)) continue;
        const inner = conjuncts(part, [...at, key, i]);
        fields.push(...inner.fields);
        complete &&= inner.complete;
      }
    } else if (key.startsWith('$')) complete = false;
    else fields.push([key, value, [...at, key]]);
  }
  return { fields, complete };
}

/**
 * A filter as an operation holds it: its shape (undefined: not cached) and its test, mingo's, compiled only if a row
 * needs judging (a class, not a closure per call: tsx names every closure it creates).
 */
class Query {
  private compiled: Predicate | undefined;

  constructor(
    readonly filter: Filter,
    readonly key: string | undefined,
    compiled?: Predicate,
  ) {
    this.compiled = compiled;
  }

  test(doc: unknown): boolean {
    this.compiled ??= compileFilter(this.filter);
    return this.compiled(doc);
  }
}

/**
 * A filter translated to SQL: a superset of the matches, or exactly them (then mingo need not judge). It depends only
 * on the filter's shape (see shapeKey) and the collection's indexes and held shapes, so it is cached by that shape:
 * the values are bound parameters, read from each filter by their paths.
 */
interface Plan {
  where: string;
  /** Where each parameter's value sits in a filter of this shape; `list`: a $in list, bound as one JSON array. */
  params: ReadonlyArray<{ path: ParamPath; list: boolean }>;
  exact: boolean;
  /** The SQL texts built on this plan, by use (see EmbeddedCollection.sqlFor). */
  readonly texts: Map<string, string>;
}

interface Term {
  sql: string;
  params: Array<{ path: ParamPath; list: boolean }>;
  exact: boolean;
}

const sqlValue = (v: unknown): Param => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as Param));

/** The parameters of a plan, read from a filter of its shape. */
function bindings(plan: Plan, filter: Filter): Param[] {
  const out: Param[] = [];
  for (const { path, list } of plan.params) {
    let v: unknown = filter;
    for (const step of path) v = (v as Record<string | number, unknown>)[step];
    out.push(list ? JSON.stringify(v) : sqlValue(v));
  }
  return out;
}

/** Whether SQL's comparison with a scalar is MongoDB's, given what the field held (else it over-approximates). */
const exactFor = (v: string | number | boolean, held: Held): boolean =>
  typeof v === 'string'
    ? !held.has('object')
    : typeof v === 'number'
      ? !held.has('boolean')
      : !held.has('number');

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || isFiniteNumber(v) || typeof v === 'boolean';

/** Equality with a scalar (a boolean is 1 or 0 in SQL). */
function equalTerm(expr: string, value: unknown, held: Held, at: ParamPath): Term | null {
  if (value === null) return { sql: `${expr} IS NULL`, params: [], exact: true };
  if (isScalar(value))
    return { sql: `${expr} = ?`, params: [{ path: at, list: false }], exact: exactFor(value, held) };
  return null;
}

/**
 * Membership in a list of scalars, bound as one JSON array (`json_each`: one statement for every length of list;
 * a boolean is 1 or 0 there too, and a null never matches through IN, hence the IS NULL).
 */
function inTerm(expr: string, list: unknown[], held: Held, at: ParamPath): Term | null {
  if (list.length === 0) return { sql: '0', params: [], exact: true };
  let values = false;
  let withNull = false;
  let exact = true;
  for (const v of list) {
    if (v === null) withNull = true;
    else if (isScalar(v)) {
      values = true;
      exact &&= exactFor(v, held);
    } else return null;
  }
  const parts: string[] = [];
  if (values) parts.push(`${expr} IN (SELECT value FROM json_each(?))`);
  if (withNull) parts.push(`${expr} IS NULL`);
  return {
    sql: parts.length === 1 ? (parts[0] as string) : `(${parts.join(' OR ')})`,
    params: values ? [{ path: at, list: true }] : [],
    exact,
  };
}

const RANGE_SQL: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** A range with MongoDB's type bracketing: a number bound matches numbers only, a string bound strings only. */
function rangeTerm(expr: string, op: string, bound: unknown, held: Held, at: ParamPath): Term | null {
  const cmp = RANGE_SQL[op] as string;
  const lower = op === '$gt' || op === '$gte';
  const params = [{ path: at, list: false }];
  // SQL orders NULL < numbers < text: the other side of the bracket closes the range.
  if (isFiniteNumber(bound))
    return {
      sql: lower ? `${expr} ${cmp} ? AND ${expr} < ''` : `${expr} ${cmp} ?`,
      params,
      exact: exactFor(bound, held),
    };
  if (typeof bound === 'string')
    return {
      sql: lower ? `${expr} ${cmp} ? AND ${expr} >= ''` : `${expr} ${cmp} ?`,
      params,
      exact: exactFor(bound, held),
    };
  return null;
}

/** One field's condition as SQL terms (ANDed), and whether they are exactly the condition. */
function conditionTerms(
  expr: string,
  value: unknown,
  held: Held,
  at: ParamPath,
): { terms: Term[]; exact: boolean } {
  if (!isOperatorObject(value)) {
    const term = value instanceof RegExp ? null : equalTerm(expr, value, held, at);
    return term ? { terms: [term], exact: term.exact } : { terms: [], exact: false };
  }
  const terms: Term[] = [];
  let exact = true;
  for (const [op, operand] of Object.entries(value)) {
    let term: Term | null = null;
    if (op === '$eq' && !(operand instanceof RegExp)) term = equalTerm(expr, operand, held, [...at, op]);
    else if (op === '$in' && Array.isArray(operand)) term = inTerm(expr, operand, held, [...at, op]);
    else if (op in RANGE_SQL) term = rangeTerm(expr, op, operand, held, [...at, op]);
    if (term) terms.push(term);
    exact &&= term?.exact ?? false;
  }
  return { terms, exact };
}

// --- the shape of a filter ---------------------------------------------------------------------

/** A scalar's kind in a shape: string, number, boolean, null; undefined for anything else (not cached). */
const scalarCode = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? 's'
    : typeof v === 'number'
      ? Number.isFinite(v)
        ? 'n'
        : undefined
      : typeof v === 'boolean'
        ? 'b'
        : v === null
          ? '0'
          : undefined;

/** The operators a cached shape may hold (the others, $regex with its $options, are planned per call). */
const SHAPE_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists']);

/**
 * A filter's shape: its keys in order (each prefixed by its length, so no key can forge another's), its operators,
 * and the kind of each value (for a $in or $nin list, which kinds it holds, not how many). Two filters with one
 * shape have one plan, and its parameters at the same paths. Undefined (planned per call, unchecked by any cache)
 * for what a shape does not describe: an embedded document or array as a value, a RegExp, $regex, a non-finite
 * number, undefined, an unknown operator, a nested or empty operator object. A shape is only cached after its
 * first filter passed the port's checks, and the checks depend on nothing a shape leaves out.
 */
export function shapeKey(filter: Raw): string | undefined {
  let key = '';
  for (const k in filter) {
    const v = filter[k];
    key += `${k.length}:${k}`;
    if (k === '$and' || k === '$or') {
      if (!Array.isArray(v) || v.length === 0) return undefined;
      key += '[';
      for (const part of v) {
        if (!isPlainObject(part)) return undefined;
        const inner = shapeKey(part);
        if (inner === undefined) return undefined;
        key += `{${inner}}`;
      }
      key += ']';
      continue;
    }
    const code = scalarCode(v);
    if (code !== undefined) {
      key += code;
      continue;
    }
    if (!isPlainObject(v)) return undefined;
    key += '{';
    let ops = 0;
    for (const op in v) {
      if (!SHAPE_OPERATORS.has(op)) return undefined;
      ops += 1;
      const operand = v[op];
      key += op;
      if (op === '$in' || op === '$nin') {
        if (!Array.isArray(operand)) return undefined;
        let kinds = 0;
        for (const e of operand) {
          const c = scalarCode(e);
          if (c === undefined) return undefined;
          kinds |= c === 's' ? 1 : c === 'n' ? 2 : c === 'b' ? 4 : 8;
        }
        key += `[${kinds}]`;
      } else {
        const c = scalarCode(operand);
        if (c === undefined) return undefined;
        key += c;
      }
    }
    if (ops === 0) return undefined;
    key += '}';
  }
  return key;
}

/** MongoDB's duplicate key error for a key. */
const duplicate = (collection: string, key: unknown): DuplicateKeyError =>
  new DuplicateKeyError(`E11000 duplicate key error collection: ${collection} dup key: ${safeJson(key)}`);

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

const isSqliteConstraint = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  String((err as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT');

interface IndexSpec {
  fields: string[];
  unique: boolean;
}

/** A document as SQLite holds it: its rowid (natural order) and JSON. */
interface StoredDoc {
  rowid: number;
  text: string;
}

/** An object literal's kind of object (no class instance, Date, Map, toJSON ...): JSON holds exactly its own fields. */
const isDataObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && !('toJSON' in v);
};
const isIdValue = (v: unknown): v is Param => typeof v === 'string' || isFiniteNumber(v);
const hasKeys = (o: object | undefined): boolean => o !== undefined && Object.keys(o).length > 0;

/**
 * The `_id`s a filter asks for, when it is nothing but `{ _id: v }` or `{ _id: { $in: [...] } }` of strings and finite
 * numbers (at most RECENT_READ_IDS, no duplicates); else undefined (the filter takes the general path and its checks).
 */
function idsOnly(filter: Filter): Param[] | undefined {
  if (!isPlainObject(filter)) return undefined;
  let ids: Param[] | undefined;
  for (const key in filter) {
    if (key !== '_id') return undefined;
    const value = filter[key];
    if (isIdValue(value)) {
      ids = [value];
      continue;
    }
    if (!isPlainObject(value)) return undefined;
    for (const op in value) {
      const list = value[op];
      if (op !== '$in' || ids || !Array.isArray(list) || list.length > RECENT_READ_IDS) return undefined;
      if (!list.every(isIdValue)) return undefined;
      ids = list.length > 1 ? [...new Set(list)] : list;
    }
  }
  return ids;
}

/**
 * The open connections of this process, by database file: a commit through one makes what the others kept from their
 * reads stale (two store objects on one folder: a test's restart, a bus instance of its own; see storedById).
 */
const openFiles = new Map<string, Set<SqliteDatabase>>();

/** The open database of one store folder (or in memory), shared by its collections. */
class SqliteDatabase {
  readonly db: Db;
  private readonly statements = new Map<string, Stmt>();
  /**
   * Changes whenever SQLite rolled back writes this connection made (a failed statement or commit), another connection
   * of this process to the same file committed, or the database was closed: what a collection kept from its reads
   * before may be stale (see storedById).
   */
  generation = 0;

  /** The database file's absolute path (the key of openFiles). */
  private readonly path: string;

  constructor(readonly file: string) {
    this.path = file === ':memory:' ? file : resolvePath(file);
    this.db = new Database(file);
    try {
      this.checkFormat();
    } catch (err) {
      this.db.close();
      throw err;
    }
    if (file !== ':memory:') {
      // Pages freed by deletions go back to the file system (see vacuum), so the file follows the live data.
      this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec('PRAGMA synchronous = NORMAL');
      // Deleted and overwritten content is zeroed in the file, so an erased reader's data leaves no bytes behind.
      this.db.exec('PRAGMA secure_delete = ON');
      // The WAL is reused after each checkpoint; beyond this it is truncated back (data-directory size).
      this.db.exec(`PRAGMA journal_size_limit = ${16 * 1024 * 1024}`);
    }
    this.db.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
    if (file !== ':memory:') {
      const others = openFiles.get(this.path) ?? new Set<SqliteDatabase>();
      others.add(this);
      openFiles.set(this.path, others);
    }
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS "_nudge_meta" (coll TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, value TEXT, PRIMARY KEY (coll, kind, name))',
    );
  }

  /** The data format, in SQLite's user_version (0: none recorded): recorded in a new database, else checked. */
  private checkFormat(): void {
    const version = (this.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    const tables = (this.db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n;
    const where = this.file === ':memory:' ? 'The in-memory store' : `The data folder ${dirname(this.path)}`;
    if (mustRecordFormat(where, version === 0 ? undefined : version, tables === 0))
      this.db.exec(`PRAGMA user_version = ${DATA_FORMAT}`);
  }

  /**
   * A prepared statement, cached by its text: each distinct text is prepared once while it stays among the
   * STATEMENTS most recently used. A reader returns its rows as arrays (raw mode), with no object per row.
   */
  prepare(sql: string): Stmt {
    const statements = this.statements;
    let stmt = statements.get(sql);
    if (stmt) {
      statements.delete(sql);
      statements.set(sql, stmt);
      return stmt;
    }
    stmt = this.db.prepare(sql) as unknown as Stmt;
    if (stmt.reader) stmt.raw(true);
    if (statements.size >= STATEMENTS) statements.delete(statements.keys().next().value as string);
    statements.set(sql, stmt);
    return stmt;
  }

  /** A write statement: it joins the group transaction (opening it first, see begin). */
  run(sql: string, params: Param[] = []): { changes: number } {
    this.begin();
    try {
      return this.prepare(sql).run(params);
    } catch (err) {
      this.noteFailure(err);
      throw err;
    }
  }

  /** Sees every read statement (with its parameters) while set: explain's probe. */
  trace: ((sql: string, params: Param[]) => void) | undefined;

  /** The first column of each row (the `doc` of a document query). */
  docs(sql: string, params: Param[] = []): string[] {
    this.trace?.(sql, params);
    const rows = this.prepare(sql).all(params);
    const out = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = (rows[i] as unknown[])[0] as string;
    return out;
  }

  /** Every row, as arrays of column values. */
  rows(sql: string, params: Param[] = []): unknown[][] {
    this.trace?.(sql, params);
    return this.prepare(sql).all(params);
  }

  /** The first column of the first row (one step of the statement), or undefined when there is none. */
  value<T>(sql: string, params: Param[] = []): T | undefined {
    this.trace?.(sql, params);
    return this.prepare(sql).get(params)?.[0] as T | undefined;
  }

  meta(coll: string, kind: string): Array<{ name: string; value: string | null }> {
    return this.prepare('SELECT name, value FROM "_nudge_meta" WHERE coll = ? AND kind = ?')
      .all([coll, kind])
      .map(([name, value]) => ({ name: name as string, value: value as string | null }));
  }

  setMeta(coll: string, kind: string, name: string, value: string | null = null): void {
    this.begin();
    this.prepare('INSERT OR REPLACE INTO "_nudge_meta" (coll, kind, name, value) VALUES (?, ?, ?, ?)').run([
      coll,
      kind,
      name,
      value ?? '',
    ]);
  }

  /**
   * Runs fn in the group transaction; on an error, what fn did before it is committed with the group (MongoDB's
   * ordered writes).
   */
  batch<R>(fn: () => R): R {
    this.begin();
    return fn();
  }

  /**
   * Group commit. The first write of a burst of work (everything the event loop runs in this turn: the callbacks and
   * microtasks of all the requests in flight) opens a transaction, the writes that follow join it, and it commits
   * once, in setImmediate (after this turn's I/O callbacks and their microtasks). Every operation that ran while the
   * transaction was open, a read or a write, a result or an error, is released to its caller only after that commit
   * (see settle): nothing uncommitted is ever seen outside the store, so a crash loses only operations that were
   * never acknowledged, as with one transaction per write.
   */
  private group: {
    committed: Promise<void>;
    resolve(): void;
    reject(err: unknown): void;
    /** A statement error that rolled the whole transaction back: the group fails with it. */
    failed?: unknown;
  } | null = null;

  private begin(): void {
    if (this.group) {
      if (this.group.failed !== undefined) throw this.group.failed;
      return;
    }
    this.db.exec('BEGIN');
    let resolve = () => {};
    let reject: (err: unknown) => void = () => {};
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    committed.catch(() => undefined);
    this.group = { committed, resolve, reject };
    setImmediate(() => this.commit());
  }

  /** A statement failed: if SQLite rolled the whole transaction back (I/O error, disk full), the group fails. */
  private noteFailure(err: unknown): void {
    if (this.group && this.group.failed === undefined && !this.db.inTransaction) {
      this.group.failed = err;
      this.generation += 1;
    }
  }

  /** Commits the open group transaction, then releases the operations that ran in it. */
  commit(): void {
    const group = this.group;
    if (!group) return;
    this.group = null;
    try {
      if (group.failed !== undefined) throw group.failed;
      this.db.exec('COMMIT');
      const sharing = openFiles.get(this.path);
      if (sharing && sharing.size > 1) for (const other of sharing) if (other !== this) other.generation += 1;
      group.resolve();
    } catch (err) {
      this.generation += 1;
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // the rollback's failure adds nothing to the commit's
      }
      group.reject(err);
    }
  }

  /**
   * An operation's outcome, released when it is committed: at once when no transaction is open (a read of committed
   * data), else after the group's commit (and an operation whose transaction failed to commit fails with it).
   */
  settle<R>(task: () => R): Promise<R> {
    let result: R;
    try {
      result = task();
    } catch (err) {
      this.noteFailure(err);
      if (this.group)
        return this.group.committed.then(() => {
          throw err;
        });
      return Promise.reject(err);
    }
    if (this.group) return this.group.committed.then(() => result);
    return Promise.resolve(result);
  }

  /** Commits what is pending, then checkpoints the WAL into the database and truncates it (see DocumentStore.scrub). */
  scrub(): void {
    this.commit();
    this.vacuum();
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }

  /** Returns the free pages to the file system (cheap: no rewrite of the live pages). */
  vacuum(): void {
    if (this.file !== ':memory:' && !this.db.inTransaction) this.db.exec('PRAGMA incremental_vacuum');
  }

  close(): void {
    this.commit();
    this.generation += 1;
    const sharing = openFiles.get(this.path);
    sharing?.delete(this);
    if (sharing?.size === 0) openFiles.delete(this.path);
    this.statements.clear();
    try {
      this.vacuum();
      this.db.exec('PRAGMA optimize');
      // The WAL's pages into the database and the WAL emptied: a stopped process leaves no WAL behind (data size).
      if (this.file !== ':memory:') this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // best effort
    }
    this.db.close();
  }
}

/** Every open embedded collection of this process (for embeddedStoreStats). */
const openCollections = new Set<EmbeddedCollection<Doc>>();

/**
 * What the open embedded collections of this process hold (on disk, in SQLite): per collection its folder, name,
 * document count and the size of its documents as JSON text, largest first. For the bench's breakdown.
 */
export function embeddedStoreStats(): Array<{ dir: string; name: string; docs: number; jsonBytes: number }> {
  return [...openCollections]
    .map((c) => ({ dir: c.dir, name: c.name, ...c.size() }))
    .sort((a, b) => b.jsonBytes - a.jsonBytes);
}

class EmbeddedCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  private readonly indexes = new Map<string, IndexSpec>();
  /** Fields of every index, and those that held an array (not translated) or a value SQL orders otherwise. */
  private readonly indexedFields = new Set<string>();
  private readonly arrays = new Set<string>();
  private readonly held = new Map<string, Set<Exclude<Shape, null>>>();
  /** Plans by filter shape (see shapeKey); emptied whenever what SQL can answer changes (indexes, held shapes). */
  private readonly plans = new Map<string, Plan>();
  private readonly insertSql: string;
  private readonly updateSql: string;
  private readonly deleteSql: string;
  private readonly byIdSql: string;
  private readonly byIdsSql: string;
  /**
   * The documents read by `_id` lately, as stored (rowid and JSON; null: there is none), the oldest dropped beyond
   * RECENT_DOCS. A write of a document forgets it; valid while the database's generation is `recentAt`.
   */
  private readonly recent = new Map<Param, StoredDoc | null>();
  private recentAt = 0;
  private closed = false;
  /** Whether any index is unique (else a write checks nothing before it runs). */
  private hasUnique = false;

  constructor(
    readonly name: string,
    private readonly sql: SqliteDatabase,
  ) {
    this.table = quoteId(`doc:${name}`);
    this.insertSql = `INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`;
    this.updateSql = `UPDATE ${this.table} SET doc = ? WHERE _id = ?`;
    this.deleteSql = `DELETE FROM ${this.table} WHERE _id = ?`;
    this.byIdSql = `SELECT rowid, _id, doc FROM ${this.table} WHERE _id = ?`;
    this.byIdsSql = `SELECT rowid, _id, doc FROM ${this.table} WHERE _id IN (SELECT value FROM json_each(?))`;
    sql.db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (_id PRIMARY KEY NOT NULL, doc TEXT NOT NULL)`);
    for (const { name: key, value } of sql.meta(name, 'index'))
      this.indexes.set(key, { fields: key.split(','), unique: value === 'unique' });
    for (const spec of this.indexes.values()) for (const f of spec.fields) this.indexedFields.add(f);
    this.hasUnique = [...this.indexes.values()].some((spec) => spec.unique);
    for (const { name: field } of sql.meta(name, 'array')) this.arrays.add(field);
    for (const kind of ['object', 'boolean', 'number'] as const)
      for (const { name: field } of sql.meta(name, kind)) this.heldBy(field).add(kind);
    openCollections.add(this as unknown as EmbeddedCollection<Doc>);
  }

  get dir(): string {
    return this.sql.file === ':memory:' ? '' : dirname(this.sql.file);
  }

  size(): { docs: number; jsonBytes: number } {
    if (this.closed) return { docs: 0, jsonBytes: 0 };
    const [docs, jsonBytes] = this.sql
      .prepare(`SELECT count(*), coalesce(sum(length(doc)), 0) FROM ${this.table}`)
      .get([]) as [number, number];
    return { docs, jsonBytes };
  }

  markClosed(): void {
    this.closed = true;
    openCollections.delete(this as unknown as EmbeddedCollection<Doc>);
  }

  /** Runs a task on the open store; errors become rejections. */
  private run<R>(task: () => R): Promise<R> {
    if (this.closed) return Promise.reject(new Error(`document store is closed (collection ${this.name})`));
    return this.sql.settle(task);
  }

  // --- reading -------------------------------------------------------------------------------

  /**
   * A filter checked against the port, with its shape. A shape this collection has planned before was checked with
   * its first filter, so a filter of that shape is not checked again, and mingo compiles it only if a row needs
   * judging (a plan that is not exact).
   */
  private query(filter: Filter): Query {
    if (filter === undefined) assertFilterDefined(filter);
    const key = isPlainObject(filter) ? shapeKey(filter) : undefined;
    if (key !== undefined && this.plans.has(key)) return new Query(filter, key);
    return new Query(filter, key, compileFilter(filter));
  }

  /** The query's plan (cached by shape) and its parameters. */
  private planOf(q: Query): { plan: Plan; params: Param[] } {
    if (q.key === undefined) {
      const plan = this.translate(q.filter);
      return { plan, params: bindings(plan, q.filter) };
    }
    let plan = this.plans.get(q.key);
    if (!plan) {
      plan = this.translate(q.filter);
      if (this.plans.size >= PLANS) this.plans.delete(this.plans.keys().next().value as string);
      this.plans.set(q.key, plan);
    }
    return { plan, params: plan.params.length ? bindings(plan, q.filter) : [] };
  }

  /** The filter as SQL over the indexed fields and _id (a superset of the matches, or exactly them). */
  private translate(filter: Filter): Plan {
    const { fields, complete } = conjuncts(filter);
    const where: string[] = [];
    const params: Plan['params'][number][] = [];
    let exact = complete;
    for (const [field, condition, at] of fields) {
      const usable = field === '_id' || (this.indexedFields.has(field) && !this.arrays.has(field));
      if (!usable) {
        exact = false;
        continue;
      }
      const { terms, exact: termsExact } = conditionTerms(
        fieldExpr(field),
        condition,
        this.held.get(field) ?? NOTHING_HELD,
        at,
      );
      for (const term of terms) {
        where.push(term.sql);
        params.push(...term.params);
      }
      exact &&= termsExact;
    }
    return { where: where.join(' AND '), params, exact, texts: new Map() };
  }

  /** An SQL text built on a plan, once per plan and use. */
  private sqlFor(plan: Plan, use: string, build: () => string): string {
    let text = plan.texts.get(use);
    if (text === undefined) {
      text = build();
      plan.texts.set(use, text);
    }
    return text;
  }

  private whereSql(plan: Plan, extra?: string): string {
    const conditions = [plan.where, extra].filter(Boolean);
    return conditions.length ? ` WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}` : '';
  }

  private selectSql(plan: Plan, extra?: string): string {
    return `SELECT doc FROM ${this.table}${this.whereSql(plan, extra)}`;
  }

  /**
   * A sorted page read in index order: `sort` on one field (or a field and `_id`) that an index covers and that
   * never held arrays, documents or booleans, so SQL's order is MongoDB's: SQLite orders NULL (null or missing) <
   * numbers < text, MongoDB's brackets, and within each its order. Read in batches until the page is full.
   */
  private pageInIndexOrder(
    q: Query,
    plan: Plan,
    params: Param[],
    sort: Sort,
    skip: number,
    limit: number,
    texts?: string[],
  ): Raw[] | null {
    const keys = Object.entries(sort);
    if (keys.length === 0 || keys.length > 2) return null;
    const [field, dir] = keys[0] as [string, 1 | -1];
    const second = keys[1];
    if (second && (second[0] !== '_id' || field === '_id')) return null;
    const held = this.held.get(field) ?? NOTHING_HELD;
    if (
      field !== '_id' &&
      (!this.indexedFields.has(field) || this.arrays.has(field) || held.has('object') || held.has('boolean'))
    )
      return null;
    const sql = this.sqlFor(plan, `page ${dir} ${second?.[1] ?? 0} ${field}`, () => {
      const expr = fieldExpr(field);
      const order = `ORDER BY ${expr} ${dir === 1 ? 'ASC' : 'DESC'}, ${
        second ? `_id ${second[1] === 1 ? 'ASC' : 'DESC'}` : 'rowid ASC'
      }`;
      return `${this.selectSql(plan)} ${order} LIMIT ? OFFSET ?`;
    });
    // An exact plan's rows all match: SQLite skips through the index, so a far page parses only its own documents.
    const skipInSql = plan.exact ? skip : 0;
    const want = skip - skipInSql + limit;
    const found: Raw[] = [];
    const foundTexts: string[] = [];
    const page = (): Raw[] => {
      if (texts) texts.push(...foundTexts.slice(skip - skipInSql));
      return found.slice(skip - skipInSql);
    };
    let offset = skipInSql;
    let batch = plan.exact ? want : Math.max(want, 16);
    for (;;) {
      const rows = this.sql.docs(sql, [...params, batch, offset]);
      for (const text of rows) {
        const doc = JSON.parse(text) as Raw;
        if (plan.exact || q.test(doc)) {
          found.push(doc);
          if (texts) foundTexts.push(text);
        }
        if (found.length >= want) return page();
      }
      if (rows.length < batch) break;
      offset += rows.length;
      batch = Math.min(batch * 4, 10_000);
    }
    return page();
  }

  /**
   * The matching documents (fresh copies, parsed from SQLite), sorted, skipped and limited; with `texts`, their JSON
   * as stored is pushed onto it, in the same order (for sorts in JS: not given).
   */
  private select(q: Query, opts: FindOptions = {}, texts?: string[]): Raw[] {
    const { plan, params } = this.planOf(q);
    const skip = opts.skip ?? 0;
    const limit = opts.limit ?? 0;
    const hasSort = opts.sort !== undefined && Object.keys(opts.sort).length > 0;
    if (hasSort && limit) {
      const page = this.pageInIndexOrder(q, plan, params, opts.sort as Sort, skip, limit, texts);
      if (page) return page;
    }
    if (!hasSort && limit && plan.exact) {
      if (limit === 1 && skip === 0) {
        const sql = this.sqlFor(plan, 'first', () => `${this.selectSql(plan)} ORDER BY rowid LIMIT 1`);
        const text = this.sql.value<string>(sql, params);
        if (text === undefined) return [];
        texts?.push(text);
        return [JSON.parse(text) as Raw];
      }
      const sql = this.sqlFor(plan, 'page', () => `${this.selectSql(plan)} ORDER BY rowid LIMIT ? OFFSET ?`);
      const rows = this.sql.docs(sql, [...params, limit, skip]);
      texts?.push(...rows);
      return rows.map((t) => JSON.parse(t) as Raw);
    }
    const found: Raw[] = [];
    const textOf = texts ? new Map<Raw, string>() : undefined;
    const sql = this.sqlFor(plan, 'all', () => `${this.selectSql(plan)} ORDER BY rowid`);
    for (const text of this.sql.docs(sql, params)) {
      const doc = JSON.parse(text) as Raw;
      if (!plan.exact && !q.test(doc)) continue;
      found.push(doc);
      textOf?.set(doc, text);
      if (!hasSort && limit && found.length >= skip + limit) break;
    }
    const ordered = hasSort ? sortDocs(found, opts.sort) : found;
    const result = limit ? ordered.slice(skip, skip + limit) : skip ? ordered.slice(skip) : ordered;
    if (textOf && texts) for (const doc of result) texts.push(textOf.get(doc) as string);
    return result;
  }

  private count(q: Query): number {
    const { plan, params } = this.planOf(q);
    if (plan.exact)
      return (
        this.sql.value<number>(
          this.sqlFor(plan, 'count', () => `SELECT count(*) FROM ${this.table}${this.whereSql(plan)}`),
          params,
        ) ?? 0
      );
    let n = 0;
    for (const text of this.sql.docs(
      this.sqlFor(plan, 'all', () => `${this.selectSql(plan)} ORDER BY rowid`),
      params,
    ))
      if (q.test(JSON.parse(text))) n += 1;
    return n;
  }

  /**
   * The stored documents with these `_id`s (no duplicates), in natural order: from what this collection read by `_id`
   * lately, the others from SQLite in one statement (and kept). A read by `_id` is most of what a signed-in call reads
   * (the caller's user, a post's counters, a version document), and the same documents are read again and again; SQLite
   * answers each from its page cache, but its statement, the crossing into it and back per row cost more than a lookup
   * here. Every write of a document forgets it (insertRaw, replaceRaw, the deletions, drop), and a rollback forgets all
   * (the database's generation), so what is kept is what SQLite holds, and every read still parses a fresh copy.
   */
  private storedById(ids: readonly Param[]): StoredDoc[] {
    const recent = this.recent;
    if (this.recentAt !== this.sql.generation) {
      recent.clear();
      this.recentAt = this.sql.generation;
    }
    const found: StoredDoc[] = [];
    let missing: Param[] | undefined;
    for (const id of ids) {
      const kept = recent.get(id);
      if (kept === undefined) missing = missing ? [...missing, id] : [id];
      else if (kept !== null) found.push(kept);
    }
    if (missing) {
      const rows =
        missing.length === 1
          ? this.sql.rows(this.byIdSql, missing)
          : this.sql.rows(this.byIdsSql, [JSON.stringify(missing)]);
      const held = new Set<Param>();
      for (const [rowid, id, text] of rows as Array<[number, Param, string]>) {
        const doc = { rowid, text };
        found.push(doc);
        held.add(id);
        if (text.length <= RECENT_DOC_CHARS) this.keep(id, doc);
      }
      // The ones SQLite does not hold are kept as absent (an insert forgets that).
      if (held.size < missing.length) for (const id of missing) if (!held.has(id)) this.keep(id, null);
    }
    if (found.length > 1) found.sort((a, b) => a.rowid - b.rowid);
    return found;
  }

  private keep(id: Param, doc: StoredDoc | null): void {
    if (this.recent.size >= RECENT_DOCS) this.recent.delete(this.recent.keys().next().value as Param);
    this.recent.set(id, doc);
  }

  /** A write of this document: what was read of it is forgotten. */
  private forget(id: unknown): void {
    this.recent.delete(id as Param);
  }

  /**
   * SQLite's query plan of each statement a find runs (EXPLAIN QUERY PLAN's details, one string per statement, lines
   * joined by '; '). Not part of the port: a debugging aid, and the probe of the tests that keep queries on their
   * indexes.
   */
  explain(filter: Filter, options: FindOptions = {}): string[] {
    const q = this.query(filter);
    const statements: Array<[string, Param[]]> = [];
    this.sql.trace = (sql, params) => statements.push([sql, [...params]]);
    try {
      this.select(q, { skip: options.skip ?? 0, limit: options.limit ?? 0, sort: options.sort });
    } finally {
      this.sql.trace = undefined;
    }
    return statements.map(([sql, params]) =>
      this.sql
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(params)
        .map((row) => String(row[3]))
        .join('; '),
    );
  }

  // --- writing -------------------------------------------------------------------------------

  /** Remembers what a document gives each indexed field (an array stops its translation, see Shape). */
  private noteShapes(doc: Raw): void {
    for (const field of this.indexedFields) this.noteShape(field, shapeAt(doc, field));
  }

  private heldBy(field: string): Set<Exclude<Shape, null>> {
    let held = this.held.get(field);
    if (!held) {
      held = new Set();
      this.held.set(field, held);
    }
    return held;
  }

  private noteShape(field: string, shape: Shape): void {
    if (shape === 'array') {
      if (this.arrays.has(field)) return;
      this.arrays.add(field);
    } else {
      if (shape === null || this.held.get(field)?.has(shape)) return;
      this.heldBy(field).add(shape);
    }
    // What SQL can answer exactly changed: every plan is made again.
    this.plans.clear();
    this.sql.setMeta(this.name, shape, field);
  }

  /**
   * MongoDB's unique index semantics: another document with the same key (a missing field counts as null; a compound
   * index is unique across the whole key). An array value is one key as a whole (as the contract suite defines it;
   * MongoDB would index each element).
   */
  private checkUnique(doc: Raw, previous?: Raw): void {
    for (const spec of this.indexes.values()) {
      if (!spec.unique) continue;
      // An update that leaves the key as it was cannot make it clash (it was unique before).
      if (previous && spec.fields.every((f) => valuesEqual(resolve(doc, f), resolve(previous, f)))) continue;
      const filter: Filter = {};
      for (const field of spec.fields) {
        const v = resolve(doc, field);
        filter[field] = v === undefined ? null : v;
      }
      const q = this.query(filter);
      const { plan, params } = this.planOf(q);
      params.push(doc._id as Param);
      if (plan.exact) {
        const sql = this.sqlFor(
          plan,
          'taken',
          () => `SELECT 1 FROM ${this.table}${this.whereSql(plan, '_id <> ?')} LIMIT 1`,
        );
        if (this.sql.value(sql, params) !== undefined) throw duplicate(this.name, filter);
        continue;
      }
      const rows = this.sql.docs(
        this.sqlFor(plan, 'others', () => this.selectSql(plan, '_id <> ?')),
        params,
      );
      if (rows.some((text) => q.test(JSON.parse(text)))) throw duplicate(this.name, filter);
    }
  }

  /** Inserts a document; text: its JSON, if made (see prepareInsert). */
  private insertRaw(doc: Raw, text?: string): void {
    const id = doc._id;
    if (typeof id !== 'string' && !isFiniteNumber(id))
      throw new Error(`The embedded store keeps string or number _id values only (got ${safeJson(id)})`);
    if (this.hasUnique) this.checkUnique(doc);
    try {
      this.sql.run(this.insertSql, [id, text ?? JSON.stringify(doc)]);
    } catch (err) {
      if (isSqliteConstraint(err)) throw duplicate(this.name, { _id: id });
      throw err;
    }
    this.forget(id);
    this.noteShapes(doc);
  }

  /**
   * Writes the new version of a stored document. previous: the stored one (whose unique keys need no check), or its
   * JSON as stored (parsed only if the collection has a unique index); text: the new version's JSON, if made.
   */
  private replaceRaw(doc: Raw, previous: Raw | string, text = JSON.stringify(doc)): void {
    if (this.hasUnique)
      this.checkUnique(doc, typeof previous === 'string' ? (JSON.parse(previous) as Raw) : previous);
    this.sql.run(this.updateSql, [text, doc._id as Param]);
    this.forget(doc._id);
    this.noteShapes(doc);
  }

  /**
   * Applies an update to a document just read (in place: it is a fresh parse) and writes it when its JSON changed
   * (MongoDB's "modified": the same fields, values and order). Returns the document after the update.
   */
  private updateRead(
    found: Raw,
    stored: string,
    apply: (doc: Raw, isInsert: boolean, inPlace?: boolean) => Raw,
  ): { doc: Raw; modified: boolean } {
    const id = found._id;
    const next = apply(found, false, true);
    if (!valuesEqual(id, next._id)) throw new Error(IMMUTABLE_ID);
    const text = JSON.stringify(next);
    const modified = text !== stored;
    if (modified) this.replaceRaw(next, stored, text);
    return { doc: next, modified };
  }

  /**
   * The document to insert, a JSON copy, and its JSON when it is what will be stored (a document with its _id: JSON's
   * round trip gives the same text again, so it is not made twice).
   */
  private prepareInsert(doc: T): { doc: Raw; text?: string } {
    if (!isPlainObject(doc)) throw new Error('A document has to be an object');
    const text = JSON.stringify(doc);
    // With its _id, no unique index to check and the insert running now (before the caller can change the document): only its indexed fields' shapes are read from it (noteShapes), which the JSON text
    // holds alike when those fields hold plain data (or more loosely: a non-finite number is noted a number, which
    // only makes plans less exact), so it is not copied.
    if (!this.hasUnique && isIdValue(doc._id) && this.plainIndexed(doc)) return { doc, text };
    const copy = JSON.parse(text) as Raw;
    if (copy._id === undefined || copy._id === null) return { doc: { _id: newId(), ...copy } };
    return { doc: copy, text };
  }

  /**
   * Whether every indexed field's path holds plain data in the document (no class instance, Date or other object
   * whose JSON is not its own fields), so its shapes are those of its JSON text.
   */
  private plainIndexed(doc: Raw): boolean {
    for (const field of this.indexedFields) {
      let cur: unknown = doc;
      for (const part of field.split('.')) {
        if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) break;
        if (!isDataObject(cur)) return false;
        cur = (cur as Raw)[part];
      }
      if (cur !== null && typeof cur === 'object' && !Array.isArray(cur) && !isDataObject(cur)) return false;
    }
    return true;
  }

  // --- the port ------------------------------------------------------------------------------

  async insertOne(doc: T): Promise<void> {
    const prepared = this.prepareInsert(doc);
    return this.run(() => this.insertRaw(prepared.doc, prepared.text));
  }

  async insertMany(docs: T[]): Promise<void> {
    const prepared = docs.map((d) => this.prepareInsert(d));
    return this.run(() =>
      this.sql.batch(() => {
        for (const { doc, text } of prepared) this.insertRaw(doc, text);
      }),
    );
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'skip' | 'limit'> = {}): Promise<T | null> {
    const ids = idsOnly(filter);
    const project = compileProjection(options.projection);
    if (ids && (ids.length <= 1 || !hasKeys(options.sort)))
      return this.run(() => {
        const [stored] = this.storedById(ids);
        if (!stored) return null;
        const doc = JSON.parse(stored.text) as Raw;
        return (project ? project(doc) : doc) as T;
      });
    const q = this.query(filter);
    return this.run(() => {
      const [doc] = this.select(q, { sort: options.sort, limit: 1 });
      if (!doc) return null;
      return (project ? project(doc) : doc) as T;
    });
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const ids = idsOnly(filter);
    const project = compileProjection(options.projection);
    if (ids && !options.skip && !options.limit && !hasKeys(options.sort))
      return this.run(() => {
        const docs = this.storedById(ids).map((stored) => JSON.parse(stored.text) as Raw);
        return (project ? docs.map(project) : docs) as T[];
      });
    const q = this.query(filter);
    const skip = options.skip ?? 0;
    if (!Number.isInteger(skip) || skip < 0)
      throw new Error(`skip has to be a non-negative integer, got ${skip}`);
    const limit = options.limit === undefined ? 0 : Math.abs(options.limit);
    if (!Number.isInteger(limit)) throw new Error(`limit has to be an integer, got ${options.limit}`);
    return this.run(() => {
      const docs = this.select(q, { sort: options.sort, skip, limit });
      return (project ? docs.map(project) : docs) as T[];
    });
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    const q = this.query(filter);
    return this.run(() => this.count(q));
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
    const q = this.query(filter);
    const apply = compileUpdate(update);
    return this.run(() => {
      const texts: string[] = [];
      const [found] = this.select(q, { sort: options.sort, limit: 1 }, texts);
      if (found) {
        const { doc, modified } = this.updateRead(found, texts[0] as string, apply);
        return { result: { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 }, doc };
      }
      if (!options.upsert)
        return { result: { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 }, doc: null };
      const created = withId(apply(seedFromFilter(filter), true));
      this.insertRaw(created);
      return { result: { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 }, doc: created };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const q = this.query(filter);
    const apply = compileUpdate(update);
    return this.run(() =>
      this.sql.batch(() => {
        const texts: string[] = [];
        const found = this.select(q, {}, texts);
        let modifiedCount = 0;
        for (const [i, doc] of found.entries())
          if (this.updateRead(doc, texts[i] as string, apply).modified) modifiedCount += 1;
        return { matchedCount: found.length, modifiedCount, upsertedCount: 0 };
      }),
    );
  }

  async replaceOne(filter: Filter, doc: T, options: { upsert?: boolean } = {}): Promise<UpdateResult> {
    const q = this.query(filter);
    if (!isPlainObject(doc)) throw new Error('A replacement has to be an object');
    if (Object.keys(doc).some((k) => k.startsWith('$')))
      throw new Error('Replacement document must not contain atomic operators');
    const replacement = JSON.parse(JSON.stringify(doc)) as Raw;
    return this.run(() => {
      const [found] = this.select(q, { limit: 1 });
      if (found) {
        if (replacement._id !== undefined && !valuesEqual(replacement._id, found._id)) {
          throw new Error(
            "After applying the update, the (immutable) field '_id' was found to have been altered",
          );
        }
        const { _id, ...rest } = replacement;
        const next = { _id: found._id, ...rest };
        const modified = !valuesEqual(found, next);
        if (modified) this.replaceRaw(next, found);
        return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 };
      }
      if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      const { _id, ...rest } = replacement;
      this.insertRaw(withId({ _id: _id ?? seedFromFilter(filter)._id, ...rest }));
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    });
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const q = this.query(filter);
    return this.run(() => {
      const [found] = this.select(q, { limit: 1 });
      if (!found) return { deletedCount: 0 };
      this.forget(found._id);
      return { deletedCount: this.sql.run(this.deleteSql, [found._id as Param]).changes };
    });
  }

  async deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    const q = this.query(filter);
    return this.run(() => {
      const { plan, params } = this.planOf(q);
      if (plan.exact) {
        this.recent.clear();
        return {
          deletedCount: this.sql.run(
            this.sqlFor(plan, 'delete', () => `DELETE FROM ${this.table}${this.whereSql(plan)}`),
            params,
          ).changes,
        };
      }
      return this.sql.batch(() => {
        let deletedCount = 0;
        for (const doc of this.select(q)) {
          this.forget(doc._id);
          deletedCount += this.sql.run(this.deleteSql, [doc._id as Param]).changes;
        }
        return { deletedCount };
      });
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
    const key = fields.join(',');
    return this.run(() => {
      if (key === '_id') return; // always there, always unique
      const existing = this.indexes.get(key);
      if (existing) {
        if (existing.unique !== unique)
          throw new Error(
            `An index on ${key} already exists with different options (unique: ${existing.unique})`,
          );
        return;
      }
      const newFields = fields.filter((f) => f !== '_id' && !this.indexedFields.has(f));
      const docs = unique || newFields.length ? this.sql.docs(`SELECT doc FROM ${this.table}`) : [];
      if (unique) this.assertNoDuplicates(docs, fields);
      this.sql.batch(() => {
        for (const text of docs) {
          const doc = JSON.parse(text) as Raw;
          for (const field of newFields) this.noteShape(field, shapeAt(doc, field));
        }
        const name = quoteId(`ix:${this.name}:${key}`);
        const columns = fields.map((f) => `${fieldExpr(f)} ${keys[f] === -1 ? 'DESC' : 'ASC'}`).join(', ');
        this.sql.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${this.table} (${columns})`);
        this.sql.setMeta(this.name, 'index', key, unique ? 'unique' : 'plain');
      });
      this.indexes.set(key, { fields, unique });
      this.hasUnique ||= unique;
      for (const f of fields) this.indexedFields.add(f);
      this.plans.clear();
    });
  }

  /** Refuses a unique index over documents that already share a key (MongoDB's semantics, as checkUnique). */
  private assertNoDuplicates(docs: string[], fields: string[]): void {
    const seen = new Set<string>();
    for (const text of docs) {
      const doc = JSON.parse(text) as Raw;
      const key = fields.map((field) => resolve(doc, field) ?? null);
      const id = safeJson(key);
      if (seen.has(id)) throw duplicate(this.name, Object.fromEntries(fields.map((f, i) => [f, key[i]])));
      seen.add(id);
    }
  }

  async drop(): Promise<void> {
    return this.run(() =>
      this.sql.batch(() => {
        this.recent.clear();
        this.sql.run(`DELETE FROM ${this.table}`);
        this.sql.run(
          "DELETE FROM \"_nudge_meta\" WHERE coll = ? AND kind IN ('array', 'object', 'boolean', 'number')",
          [this.name],
        );
        this.arrays.clear();
        this.held.clear();
        this.plans.clear();
      }),
    );
  }
}

const IMMUTABLE_ID = "Performing an update on the path '_id' would modify the immutable field '_id'";

function withId(doc: Raw): Raw {
  const { _id, ...rest } = doc;
  return { _id: _id ?? newId(), ...rest };
}

/** Creates the embedded store. Collections are opened lazily, on first use, and cached. */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): DocumentStore {
  const { dir } = options;
  if (dir) mkdirSync(dir, { recursive: true });
  const sql = new SqliteDatabase(dir ? join(dir, STORE_FILE) : ':memory:');
  const collections = new Map<string, EmbeddedCollection<Doc>>();
  let closed = false;
  const vacuum = dir ? setInterval(() => sql.vacuum(), VACUUM_EVERY_MS) : null;
  vacuum?.unref();

  return {
    kind: 'embedded',
    groupCommit: true,
    collection<T extends Doc = Doc>(name: string): Collection<T> {
      if (closed) throw new Error('document store is closed');
      let c = collections.get(name);
      if (!c) {
        if (!COLLECTION_NAME.test(name)) throw new Error(`Invalid collection name '${name}'`);
        c = new EmbeddedCollection<Doc>(name, sql);
        collections.set(name, c);
      }
      return c as unknown as Collection<T>;
    },
    async ping(): Promise<void> {
      if (closed) throw new Error('document store is closed');
      sql.value('SELECT 1');
    },
    async scrub(): Promise<void> {
      if (closed || !dir) return;
      sql.scrub();
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      if (vacuum) clearInterval(vacuum);
      for (const c of collections.values()) c.markClosed();
      collections.clear();
      sql.close();
    },
  };
}
