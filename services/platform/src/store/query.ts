/**
 * MongoDB filters, projections, sorts and updates for the embedded adapter, evaluated by `mingo`. This module only
 * holds the port's boundary: it refuses what is outside the port (./types), and covers the few places where mingo's
 * semantics differ from MongoDB's and the contract suite notices (embedded documents compare with their key order;
 * an array sorts by its smallest element ascending and its largest descending; $inc, $push, $addToSet and $pull
 * refuse a value of the wrong type instead of skipping it).
 */
import { Context } from 'mingo/core';
import { $eq, $gt, $gte, $in, $lt, $lte, $ne, $nin } from 'mingo/operators/query/comparison';
import { $exists } from 'mingo/operators/query/element';
import { $regex } from 'mingo/operators/query/evaluation';
import { $and, $or } from 'mingo/operators/query/logical';
import * as updateOperators from 'mingo/operators/update';
import { Query } from 'mingo/query';
import { compare, isEqual, resolve } from 'mingo/util';
import type { FieldProjection, Filter, Sort, Update } from './types';

type Obj = Record<string, unknown>;
export type Predicate = (doc: unknown) => boolean;

export const isPlainObject = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp);

const isOperatorObject = (v: unknown): v is Obj =>
  isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'));

// ---------------------------------------------------------------------------------------------
// Values

/** Deep copy of a document value: drops undefined fields and functions; undefined array items become null. */
export function cloneValue<T>(value: T): T {
  return cloneAny(value) as T;
}

function cloneAny(v: unknown): unknown {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'bigint') throw new Error('BigInt values are not supported by the document store');
    return v;
  }
  if (v instanceof Date) return new Date(v.getTime());
  if (v instanceof RegExp) return new RegExp(v.source, v.flags);
  if (Array.isArray(v))
    return v.map((e) => (e === undefined || typeof e === 'function' ? null : cloneAny(e)));
  const out: Obj = {};
  for (const [k, e] of Object.entries(v)) {
    if (e === undefined || typeof e === 'function' || typeof e === 'symbol') continue;
    out[k] = cloneAny(e);
  }
  return out;
}

/** Embedded documents are equal in MongoDB only with the same fields in the same order (mingo ignores the order). */
function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.every((e, i) => sameKeyOrder(e, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.every((k, i) => kb[i] === k && sameKeyOrder(a[k], b[k]));
}

/** BSON equality (type-aware, key order included). */
export const valuesEqual = (a: unknown, b: unknown): boolean =>
  (a === undefined ? b === undefined : isEqual(a, b)) && sameKeyOrder(a, b);

/** The first path (dotted) whose value is undefined, inside a filter (objects and arrays), or null. */
function findUndefined(value: unknown, path = ''): string | null {
  if (value === undefined) return path || '(root)';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findUndefined(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const hit = findUndefined(v, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * Both adapters refuse `undefined` inside a filter: MongoDB would silently drop the condition (or read it
 * as null), so `deleteMany({ userId: maybeUndefined })` could hit every document.
 */
export function assertFilterDefined(filter: unknown, what = 'filter'): void {
  const hit = findUndefined(filter);
  if (hit) throw new Error(`undefined value in ${what} at '${hit}' (pass null to match a missing field)`);
}

// ---------------------------------------------------------------------------------------------
// Filters

/**
 * $eq/$ne/$in/$nin whose value holds an embedded document: mingo's match also has to hold with the key order.
 * Exact equality of a whole embedded document is rare in queries, so the extra walk only runs for those.
 */
type QueryOp = typeof $eq;
const orderedEquality = (base: QueryOp, list: boolean): QueryOp =>
  ((selector: string, value: unknown, options: never) => {
    const test = base(selector, value, options) as (doc: unknown) => boolean;
    const wanted = list && Array.isArray(value) ? value : [value];
    if (!wanted.some((w) => isPlainObject(w) || Array.isArray(w))) return test;
    return (doc: unknown) => {
      if (!test(doc)) return false;
      const found = resolve(doc as Obj, selector);
      const leaves = Array.isArray(found) ? [found, ...found.flat()] : [found];
      return leaves.some((l) => wanted.some((w) => valuesEqual(l, w)));
    };
  }) as QueryOp;

/** The operators of the port and nothing else: mingo refuses any other, naming it. */
const context = Context.init({
  query: {
    $eq: orderedEquality($eq, false),
    $ne: $ne,
    $in: orderedEquality($in, true),
    $nin: $nin,
    $gt,
    $gte,
    $lt,
    $lte,
    $exists,
    $regex,
    $and,
    $or,
  },
});
const queryOptions = { context, scriptEnabled: false };

/** Checks the parts of the port mingo accepts more widely: $options flags, $and/$or shapes, undefined. */
function assertFilterShape(filter: Obj): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw new Error(`${key} must be a nonempty array`);
      for (const sub of value) {
        if (!isPlainObject(sub)) throw new Error(`${key} entries have to be objects`);
        assertFilterShape(sub);
      }
      continue;
    }
    if (key.startsWith('$')) throw new Error(`Unsupported filter operator: ${key}`);
    if (key === '' || key.split('.').some((p) => p === '' || p.startsWith('$')))
      throw new Error(`Invalid filter path: '${key}'`);
    if (!isOperatorObject(value)) continue;
    for (const op of Object.keys(value)) {
      if (!op.startsWith('$'))
        throw new Error(`unknown operator: ${op} (mixed operators and fields at '${key}')`);
    }
    if ('$options' in value) {
      if (!('$regex' in value)) throw new Error(`$options needs a $regex (at '${key}')`);
      const options = value.$options;
      if (typeof options !== 'string') throw new Error('$options has to be a string');
      for (const f of options)
        if (f !== 'i' && f !== 'm' && f !== 's')
          throw new Error(`Unsupported $options flag '${f}' (supported: i, m, s)`);
    }
    for (const op of ['$in', '$nin'] as const) {
      if (!(op in value)) continue;
      const list = value[op];
      if (!Array.isArray(list)) throw new Error(`${op} needs an array (at '${key}')`);
      if (list.some(isOperatorObject)) throw new Error(`cannot nest $ under ${op} (at '${key}')`);
    }
  }
}

/** Compiles a MongoDB filter into a predicate; throws on anything outside the supported subset. */
export function compileFilter(filter: Filter | undefined): Predicate {
  if (filter === undefined) return () => true;
  if (!isPlainObject(filter)) throw new Error('A filter has to be an object');
  assertFilterDefined(filter);
  assertFilterShape(filter);
  const keys = Object.keys(filter);
  if (keys.length === 0) return () => true;
  // A point lookup by a string or number _id (most of the store's traffic): equality of the value itself, without
  // compiling a mingo query (an _id is never an array, so MongoDB's element matching does not apply).
  const id = filter._id;
  if (keys.length === 1 && (typeof id === 'string' || (typeof id === 'number' && !Number.isNaN(id))))
    return (doc) => (doc as Obj)._id === id;
  // Compiled on first use: a filter the store translates to SQL exactly is never tested here.
  let query: Query | undefined;
  return (doc) => {
    query ??= new Query(filter, queryOptions);
    return query.test(doc as Obj);
  };
}

/**
 * The document an upsert starts from: the filter's equality conditions (`{a: v}`, `{a: {$eq: v}}`,
 * inside $and, or inside a one-clause $or), dotted paths becoming embedded documents.
 */
export function seedFromFilter(filter: Filter | undefined): Obj {
  const seed: Obj = {};
  const visit = (f: Obj) => {
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const sub of value) if (isPlainObject(sub)) visit(sub);
      } else if (key === '$or' && Array.isArray(value) && value.length === 1 && isPlainObject(value[0])) {
        visit(value[0]);
      } else if (key.startsWith('$')) {
        // other top-level operators contribute nothing
      } else if (isOperatorObject(value)) {
        if ('$eq' in value && !(value.$eq instanceof RegExp)) setPath(seed, key, cloneValue(value.$eq));
      } else if (!(value instanceof RegExp)) {
        setPath(seed, key, cloneValue(value));
      }
    }
  };
  if (filter) visit(filter);
  return seed;
}

function setPath(doc: Obj, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = doc;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (!isPlainObject(next)) cur[part] = {};
    cur = cur[part] as Obj;
  }
  cur[parts[parts.length - 1] as string] = value;
}

/** The `_id` a filter pins by equality, if any. */
export function idFromFilter(filter: Filter | undefined): unknown {
  return seedFromFilter(filter)._id;
}

// ---------------------------------------------------------------------------------------------
// Sort, projection

/** A document's sort key on a path: an array sorts by its smallest element ascending, its largest descending. */
function sortKey(doc: unknown, path: string, dir: 1 | -1): unknown {
  const value = resolve(doc as Obj, path);
  if (!Array.isArray(value)) return value ?? undefined;
  const items = value.flat();
  let best: unknown;
  for (const [i, v] of items.entries()) {
    const c = i === 0 ? 0 : compare(v, best);
    if (i === 0 || (dir === 1 ? c < 0 : c > 0)) best = v;
  }
  return best ?? undefined;
}

/** Sorts (stable, a copy) by the sort spec, with each document's keys computed once. */
export function sortDocs<T>(docs: T[], sort: Sort | undefined): T[] {
  if (!sort) return docs;
  const keys = Object.entries(sort);
  if (keys.length === 0) return docs;
  for (const [path, dir] of keys) {
    if (dir !== 1 && dir !== -1)
      throw new Error(`Invalid sort direction for '${path}': ${String(dir)} (use 1 or -1)`);
  }
  const keyed = docs.map((doc) => ({ doc, k: keys.map(([path, dir]) => sortKey(doc, path, dir)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compare(a.k[i], b.k[i]);
      if (c !== 0) return (keys[i] as [string, 1 | -1])[1] === 1 ? c : -c;
    }
    return 0;
  });
  return keyed.map((e) => e.doc);
}

/** Compiles a find projection (inclusion or exclusion, `_id` may be excluded from an inclusion). */
export function compileProjection(projection: FieldProjection | undefined): ((doc: Obj) => Obj) | null {
  if (!projection || Object.keys(projection).length === 0) return null;
  for (const [path, v] of Object.entries(projection)) {
    if (v !== 0 && v !== 1 && (v as unknown) !== true && (v as unknown) !== false)
      throw new Error(`Unsupported projection value for '${path}' (use 0 or 1)`);
    if (path.split('.').some((p) => p === '' || p.startsWith('$')))
      throw new Error(`Invalid projection path: '${path}'`);
  }
  const all = new Query({}, queryOptions);
  const project = (doc: Obj): Obj => {
    const [out] = all.find<Obj>([doc], projection).all();
    const { _id, ...rest } = out as Obj;
    return _id === undefined ? rest : { _id, ...rest };
  };
  // mingo checks the projection when it first runs it: do that now, so a bad one fails before any read.
  project({ _id: '' });
  return project;
}

// ---------------------------------------------------------------------------------------------
// Updates

const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$push', '$pull', '$addToSet', '$setOnInsert']);

const typeName = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : v instanceof Date
        ? 'date'
        : typeof v === 'object'
          ? 'object'
          : typeof v;

/** Refuses two update paths where one is the other or lies inside it (MongoDB refuses them as conflicts). */
function assertNoConflicts(paths: string[]): void {
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1] as string;
    const b = sorted[i] as string;
    if (a === b || b.startsWith(`${a}.`))
      throw new Error(`Updating the path '${b}' would create a conflict at '${a}'`);
  }
}

type Mutator = (doc: Obj) => unknown;
type UpdateOperator = (expr: Obj) => Mutator;

/** What $set, $inc and $unset do to the object holding a path's last step. */
const DIRECT: Record<string, (parent: Obj, key: string, value: unknown) => void> = {
  $set: (parent, key, value) => {
    parent[key] = value !== null && typeof value === 'object' ? cloneValue(value) : value;
  },
  $inc: (parent, key, value) => {
    const current = parent[key];
    parent[key] = (typeof current === 'number' ? current : 0) + (value as number);
  },
  $unset: (parent, key) => {
    delete parent[key];
  },
};

/**
 * $set, $inc or $unset applied directly when every path runs through embedded documents only (or through fields
 * that are missing: $set and $inc create them, $unset has nothing to remove); mingo's operator for anything else
 * (a path through an array or a scalar), checked before any field is touched. mingo walks a generic expression
 * graph per document, several times the cost of these few steps for the common update.
 */
function directOr(op: string, fields: Obj, viaMingo: Mutator): Mutator {
  const direct = DIRECT[op];
  if (!direct) return viaMingo;
  const entries = Object.entries(fields).map(([path, value]) => ({ steps: path.split('.'), value }));
  const plainAlong = (doc: Obj, steps: string[]): boolean => {
    let cur: unknown = doc;
    for (let i = 0; i < steps.length - 1; i++) {
      cur = (cur as Obj)[steps[i] as string];
      if (cur === undefined) return true;
      if (!isPlainObject(cur)) return false;
    }
    return true;
  };
  return (doc) => {
    if (!entries.every(({ steps }) => plainAlong(doc, steps))) return viaMingo(doc);
    for (const { steps, value } of entries) {
      let parent: Obj | undefined = doc;
      for (let i = 0; i < steps.length - 1 && parent; i++) {
        const step = steps[i] as string;
        let next = parent[step] as Obj | undefined;
        if (next === undefined && op !== '$unset') {
          next = {};
          parent[step] = next;
        }
        parent = next;
      }
      if (parent) direct(parent, steps[steps.length - 1] as string, value);
    }
    return undefined;
  };
}

/**
 * Validates an update document and returns a function applying it (mingo's operators) to a copy of a document, or to
 * the document itself with `inPlace` (a fresh document the caller owns, e.g. just parsed).
 */
export function compileUpdate(update: Update): (doc: Obj, isInsert: boolean, inPlace?: boolean) => Obj {
  if (!isPlainObject(update)) throw new Error('An update has to be an object of update operators');
  if (Object.keys(update).length === 0) throw new Error('Update document requires atomic operators');
  const always: Mutator[] = [];
  const onInsert: Mutator[] = [];
  const paths: string[] = [];
  const typed: Array<[string, string]> = [];
  const setId: unknown[] = [];
  const insertId: unknown[] = [];
  for (const [op, given] of Object.entries(update as Obj)) {
    if (!op.startsWith('$'))
      throw new Error(`Update document requires atomic operators (found field '${op}')`);
    if (!UPDATE_OPERATORS.has(op)) throw new Error(`Unsupported update operator: ${op}`);
    if (given === undefined) continue;
    if (!isPlainObject(given))
      throw new Error(`Modifiers operate on fields but ${op} was given ${typeName(given)}`);
    // Undefined values are dropped, as the MongoDB client does with ignoreUndefined.
    const fields = cloneValue(given);
    for (const [path, value] of Object.entries(fields)) {
      if (path.split('.').some((p) => p === '' || p.startsWith('$')))
        throw new Error(`Invalid update path: '${path}'`);
      if (path === '_id' && (op === '$set' || op === '$setOnInsert')) {
        // Allowed when it keeps the value (MongoDB's rule; mingo refuses any path on _id): checked per document.
        (op === '$set' ? setId : insertId).push(value);
        delete fields[path];
        continue;
      }
      if (path === '_id' || path.startsWith('_id.'))
        throw new Error(`Performing an update on the path '${path}' would modify the immutable field '_id'`);
      if (op === '$inc' && typeof value !== 'number')
        throw new Error(`Cannot increment with non-numeric argument: {${path}: ${JSON.stringify(value)}}`);
      if ((op === '$push' || op === '$addToSet') && isOperatorObject(value)) {
        for (const k of Object.keys(value))
          if (k !== '$each') throw new Error(`Unsupported ${op} modifier: ${k}`);
        if (!Array.isArray(value.$each)) throw new Error(`The argument to $each in ${op} must be an array`);
      }
      // A $pull condition holds the port's filter operators only.
      if (op === '$pull' && isPlainObject(value))
        compileFilter(isOperatorObject(value) ? { v: value } : value);
      if (op === '$inc' || op === '$push' || op === '$addToSet' || op === '$pull') typed.push([op, path]);
      paths.push(path);
    }
    if (Object.keys(fields).length === 0) continue;
    const operator = (updateOperators as unknown as Record<string, UpdateOperator>)[
      op === '$setOnInsert' ? '$set' : op
    ] as UpdateOperator;
    const name = op === '$setOnInsert' ? '$set' : op;
    (op === '$setOnInsert' ? onInsert : always).push(directOr(name, fields, operator(fields)));
  }
  assertNoConflicts(paths);
  return (doc, isInsert, inPlace = false) => {
    const out = inPlace ? doc : cloneValue(doc);
    for (const [op, path] of typed) {
      const current = resolve(out, path);
      if (current === undefined || Array.isArray(resolveParent(out, path))) continue;
      if (op === '$inc' && typeof current !== 'number')
        throw new Error(
          `Cannot apply $inc to a value of non-numeric type: field '${path}' is of type ${typeName(current)}`,
        );
      if (op !== '$inc' && !Array.isArray(current))
        throw new Error(`The field '${path}' must be an array but is of type ${typeName(current)}`);
    }
    for (const id of isInsert ? [...setId, ...insertId] : setId) {
      if (out._id === undefined) out._id = cloneValue(id);
      else if (!valuesEqual(out._id, id))
        throw new Error("Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    for (const mutate of always) mutate(out);
    if (isInsert) for (const mutate of onInsert) mutate(out);
    return out;
  };
}

/** The value holding a path's last component (to tell a field from values spread over an array of documents). */
function resolveParent(doc: Obj, path: string): unknown {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? doc : resolve(doc, path.slice(0, dot));
}

/** Finds documents by key equality ignoring null-vs-missing differences (for unique indexes: MongoDB indexes a missing field as null). */
export function uniqueKeyFilter(doc: Obj, fields: string[]): Filter | null {
  const filter: Filter = {};
  let nullish = false;
  for (const f of fields) {
    const v = resolve(doc, f);
    if (Array.isArray(v)) return null;
    if (v === null || v === undefined) nullish = true;
    filter[f] = v === undefined ? null : v;
  }
  return nullish ? filter : null;
}
