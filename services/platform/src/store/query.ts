/**
 * MongoDB query and update semantics for the subset in ./types, evaluated in process.
 * The embedded adapter uses this so that it matches, sorts, projects and updates exactly like MongoDB
 * (nedb's own matcher differs in places: $ne on arrays, null vs missing, object key order, type order in sorts).
 * Pure functions, no engine client.
 */
import type { FieldProjection, Filter, Sort, Update } from './types';

type Obj = Record<string, unknown>;
type Leaves = unknown[];
export type Predicate = (doc: unknown) => boolean;

export const isPlainObject = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp);

const isIndex = (part: string): boolean => /^(0|[1-9]\d*)$/.test(part);

const splitPath = (path: string, what: string): string[] => {
  const parts = path.split('.');
  if (path === '' || parts.some((p) => p === '')) throw new Error(`Invalid ${what} path: '${path}'`);
  for (const p of parts) {
    if (p.startsWith('$')) throw new Error(`Unsupported ${what} path component '${p}' in '${path}'`);
  }
  return parts;
};

// ---------------------------------------------------------------------------------------------
// Values: cloning (undefined is dropped, as the MongoDB client does with ignoreUndefined), BSON order

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

/** The first path (dotted) whose value is undefined, inside a filter (objects and arrays), or null. */
export function findUndefined(value: unknown, path = ''): string | null {
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

/** BSON canonical type order: null/missing < numbers < strings < objects < arrays < booleans < dates < regexes. */
function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number' || typeof v === 'bigint') return 2;
  if (typeof v === 'string') return 3;
  if (Array.isArray(v)) return 5;
  if (typeof v === 'boolean') return 8;
  if (v instanceof Date) return 9;
  if (v instanceof RegExp) return 11;
  return 4;
}

/** Strings compare by code point, which is the order of their UTF-8 bytes (MongoDB's default, no collation). */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa === sb) return ca < cb ? -1 : 1;
    return sa ? 1 : -1; // a surrogate (astral code point) sorts after any BMP code unit
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareNumbers(a: number, b: number): number {
  const na = Number.isNaN(a);
  const nb = Number.isNaN(b);
  if (na || nb) return na && nb ? 0 : na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Total order of BSON values, as MongoDB compares them for sorting and comparison operators. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1:
      return 0;
    case 2:
      return compareNumbers(Number(a), Number(b));
    case 3:
      return compareStrings(a as string, b as string);
    case 5: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
    }
    case 8:
      return a === b ? 0 : a === false ? -1 : 1;
    case 9:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case 11: {
      const c = compareStrings((a as RegExp).source, (b as RegExp).source);
      return c !== 0 ? c : compareStrings((a as RegExp).flags, (b as RegExp).flags);
    }
    default: {
      // Embedded documents: field by field, in order (value type, then name, then value).
      const x = Object.entries(a as Obj).filter(([, v]) => v !== undefined);
      const y = Object.entries(b as Obj).filter(([, v]) => v !== undefined);
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const [ka, va] = x[i] as [string, unknown];
        const [kb, vb] = y[i] as [string, unknown];
        const rt = typeRank(va) - typeRank(vb);
        if (rt !== 0) return rt < 0 ? -1 : 1;
        const ck = compareStrings(ka, kb);
        if (ck !== 0) return ck;
        const cv = compareValues(va, vb);
        if (cv !== 0) return cv;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
  }
}

/** BSON equality: type-aware, embedded documents are equal only with the same fields in the same order. */
export const valuesEqual = (a: unknown, b: unknown): boolean => compareValues(a, b) === 0;

// ---------------------------------------------------------------------------------------------
// Paths

/**
 * The values a dotted path reaches, MongoDB style: an array on the way is traversed element by element
 * (its documents), a numeric component indexes into an array. A missing path yields `undefined`.
 * A leaf array is returned as is (conditions then test the array and each of its elements).
 */
export function collectLeaves(doc: unknown, parts: readonly string[]): Leaves {
  const out: Leaves = [];
  collect(doc, parts, 0, out);
  if (out.length === 0) out.push(undefined);
  return out;
}

function collect(value: unknown, parts: readonly string[], i: number, out: Leaves): void {
  if (i === parts.length) {
    out.push(value);
    return;
  }
  const part = parts[i] as string;
  if (Array.isArray(value)) {
    if (isIndex(part)) {
      collect(value[Number(part)], parts, i + 1, out);
      return;
    }
    for (const el of value) if (isPlainObject(el)) collect(el, parts, i, out);
    return;
  }
  if (isPlainObject(value)) {
    collect(value[part], parts, i + 1, out);
    return;
  }
  out.push(undefined);
}

// ---------------------------------------------------------------------------------------------
// Filters

type LeafTest = (leaves: Leaves) => boolean;

const isOperatorObject = (v: unknown): v is Obj =>
  isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'));

const isNullish = (v: unknown): boolean => v === null || v === undefined;

function eqMatch(leaves: Leaves, q: unknown): boolean {
  if (q instanceof RegExp) return regexMatch(leaves, q);
  if (q === null) return leaves.some((l) => isNullish(l) || (Array.isArray(l) && l.some((e) => e === null)));
  return leaves.some((l) => valuesEqual(l, q) || (Array.isArray(l) && l.some((e) => valuesEqual(e, q))));
}

function regexMatch(leaves: Leaves, re: RegExp): boolean {
  const test = (v: unknown) => typeof v === 'string' && re.test(v);
  return leaves.some((l) => test(l) || (Array.isArray(l) && l.some(test)));
}

/** A RegExp without global/sticky state, from a RegExp or a string pattern plus MongoDB $options. */
function toRegExp(pattern: unknown, options: unknown): RegExp {
  let source: string;
  let flags = '';
  if (pattern instanceof RegExp) {
    source = pattern.source;
    flags = pattern.flags.replace(/[gyd]/g, '');
  } else if (typeof pattern === 'string') source = pattern;
  else throw new Error('$regex has to be a string or a RegExp');
  if (options !== undefined) {
    if (typeof options !== 'string') throw new Error('$options has to be a string');
    for (const f of options) {
      if (f !== 'i' && f !== 'm' && f !== 's')
        throw new Error(`Unsupported $options flag '${f}' (supported: i, m, s)`);
      if (!flags.includes(f)) flags += f;
    }
  }
  return new RegExp(source, flags);
}

type CmpOp = '$gt' | '$gte' | '$lt' | '$lte';

function cmpMatch(leaves: Leaves, q: unknown, op: CmpOp): boolean {
  if (q === null) return op === '$gte' || op === '$lte' ? eqMatch(leaves, null) : false;
  const rank = typeRank(q);
  const ok = (c: number) => (op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0);
  const test = (v: unknown) => v !== undefined && typeRank(v) === rank && ok(compareValues(v, q));
  return leaves.some((l) => test(l) || (Array.isArray(l) && l.some(test)));
}

function inList(op: string, list: unknown, path: string): (leaves: Leaves) => boolean {
  if (!Array.isArray(list)) throw new Error(`${op} needs an array (at '${path}')`);
  for (const v of list) {
    if (isOperatorObject(v)) throw new Error(`cannot nest $ under ${op} (at '${path}')`);
  }
  return (leaves) => list.some((q) => eqMatch(leaves, q));
}

/** Compiles the condition on one path: a value (equality), a RegExp, or an operator object. */
function compileCondition(value: unknown, path: string): LeafTest {
  if (!isOperatorObject(value)) {
    if (value instanceof RegExp) {
      const re = toRegExp(value, undefined);
      return (leaves) => regexMatch(leaves, re);
    }
    return (leaves) => eqMatch(leaves, value);
  }
  const tests: LeafTest[] = [];
  for (const [op, q] of Object.entries(value)) {
    if (!op.startsWith('$'))
      throw new Error(`unknown operator: ${op} (mixed operators and fields at '${path}')`);
    switch (op) {
      case '$eq':
        tests.push((leaves) => eqMatch(leaves, q));
        break;
      case '$ne':
        tests.push((leaves) => !eqMatch(leaves, q));
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        tests.push((leaves) => cmpMatch(leaves, q, op));
        break;
      case '$in': {
        const t = inList(op, q, path);
        tests.push(t);
        break;
      }
      case '$nin': {
        const t = inList(op, q, path);
        tests.push((leaves) => !t(leaves));
        break;
      }
      case '$exists': {
        const want = Boolean(q);
        tests.push((leaves) => leaves.some((l) => l !== undefined) === want);
        break;
      }
      case '$regex': {
        const re = toRegExp(q, value.$options);
        tests.push((leaves) => regexMatch(leaves, re));
        break;
      }
      case '$options':
        if (!('$regex' in value)) throw new Error(`$options needs a $regex (at '${path}')`);
        break;
      default:
        throw new Error(`Unsupported filter operator: ${op} (at '${path}')`);
    }
  }
  return (leaves) => tests.every((t) => t(leaves));
}

/** Compiles a MongoDB filter into a predicate; throws on anything outside the supported subset. */
export function compileFilter(filter: Filter | undefined): Predicate {
  if (filter === undefined) return () => true;
  if (!isPlainObject(filter)) throw new Error('A filter has to be an object');
  const preds: Predicate[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$')) {
      if (key !== '$and' && key !== '$or') throw new Error(`Unsupported filter operator: ${key}`);
      if (!Array.isArray(value) || value.length === 0) throw new Error(`${key} must be a nonempty array`);
      const subs = value.map((sub) => {
        if (!isPlainObject(sub)) throw new Error(`${key} entries have to be objects`);
        return compileFilter(sub);
      });
      preds.push(key === '$and' ? (d) => subs.every((p) => p(d)) : (d) => subs.some((p) => p(d)));
      continue;
    }
    if (value === undefined) throw new Error(`undefined value in filter at '${key}'`);
    const parts = splitPath(key, 'filter');
    const test = compileCondition(value, key);
    preds.push((d) => test(collectLeaves(d, parts)));
  }
  if (preds.length === 0) return () => true;
  if (preds.length === 1) return preds[0] as Predicate;
  return (d) => preds.every((p) => p(d));
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
        if ('$eq' in value && !(value.$eq instanceof RegExp))
          setPath(seed, key.split('.'), cloneValue(value.$eq), key);
      } else if (!(value instanceof RegExp)) {
        setPath(seed, key.split('.'), cloneValue(value), key);
      }
    }
  };
  if (filter) visit(filter);
  return seed;
}

/** The `_id` a filter pins by equality, if any. */
export function idFromFilter(filter: Filter | undefined): unknown {
  return seedFromFilter(filter)._id;
}

// ---------------------------------------------------------------------------------------------
// Sort, projection

/** Compiles a sort spec into a comparator. Arrays sort by their smallest (ascending) or largest (descending) element. */
export function compileSort(sort: Sort): (a: unknown, b: unknown) => number {
  const keys = Object.entries(sort).map(([path, dir]) => {
    if (dir !== 1 && dir !== -1)
      throw new Error(`Invalid sort direction for '${path}': ${String(dir)} (use 1 or -1)`);
    return { parts: splitPath(path, 'sort'), dir };
  });
  const keyOf = (doc: unknown, parts: string[], dir: 1 | -1): unknown => {
    const vals = collectLeaves(doc, parts).flatMap((l) =>
      Array.isArray(l) ? (l.length ? l : [undefined]) : [l],
    );
    let best = vals[0];
    for (const v of vals.slice(1)) {
      const c = compareValues(v, best);
      if (dir === 1 ? c < 0 : c > 0) best = v;
    }
    return best;
  };
  return (a, b) => {
    for (const { parts, dir } of keys) {
      const c = compareValues(keyOf(a, parts, dir), keyOf(b, parts, dir));
      if (c !== 0) return dir === 1 ? c : -c;
    }
    return 0;
  };
}

/** Sorts (stable) with precomputed comparisons. */
export function sortDocs<T>(docs: T[], sort: Sort | undefined): T[] {
  if (!sort || Object.keys(sort).length === 0) return docs;
  const cmp = compileSort(sort);
  return [...docs].sort(cmp);
}

type ProjTree = { [k: string]: ProjTree | true };

/** Compiles a find projection (inclusion or exclusion, `_id` may be excluded from an inclusion). */
export function compileProjection(projection: FieldProjection | undefined): ((doc: Obj) => Obj) | null {
  if (!projection) return null;
  const entries = Object.entries(projection);
  if (entries.length === 0) return null;
  let idFlag: boolean | undefined;
  const fields: [string, boolean][] = [];
  for (const [path, v] of entries) {
    if (v !== 0 && v !== 1 && (v as unknown) !== true && (v as unknown) !== false) {
      throw new Error(`Unsupported projection value for '${path}' (use 0 or 1)`);
    }
    const on = Boolean(v);
    if (path === '_id') idFlag = on;
    else fields.push([path, on]);
  }
  const inclusion = fields.length > 0 ? (fields[0] as [string, boolean])[1] : idFlag === true;
  for (const [path, on] of fields) {
    if (on !== inclusion) {
      throw new Error(
        `Cannot do ${on ? 'inclusion' : 'exclusion'} on field ${path} in ${inclusion ? 'inclusion' : 'exclusion'} projection`,
      );
    }
  }
  const tree: ProjTree = {};
  for (const [path] of fields) {
    const parts = splitPath(path, 'projection');
    let node = tree;
    parts.forEach((p, i) => {
      const last = i === parts.length - 1;
      const existing = node[p];
      if (existing === true || (last && existing !== undefined)) throw new Error(`Path collision at ${path}`);
      if (last) node[p] = true;
      else {
        const next: ProjTree = existing ?? {};
        node[p] = next;
        node = next;
      }
    });
  }
  if (inclusion) {
    const keepId = idFlag !== false;
    return (doc) => {
      const out = include(doc, tree) as Obj;
      if (keepId && doc._id !== undefined) return { _id: cloneValue(doc._id), ...withoutId(out) };
      return withoutId(out);
    };
  }
  const dropId = idFlag === false;
  return (doc) => {
    const out = exclude(doc, tree) as Obj;
    if (dropId) delete out._id;
    return out;
  };
}

const withoutId = (o: Obj): Obj => {
  const { _id, ...rest } = o;
  return rest;
};

function include(value: unknown, tree: ProjTree): unknown {
  if (Array.isArray(value)) {
    return value.filter((e) => isPlainObject(e) || Array.isArray(e)).map((e) => include(e, tree));
  }
  const src = value as Obj;
  const out: Obj = {};
  for (const [k, v] of Object.entries(src)) {
    const node = tree[k];
    if (node === undefined || v === undefined) continue;
    if (node === true) out[k] = cloneValue(v);
    else if (isPlainObject(v) || Array.isArray(v)) out[k] = include(v, node);
  }
  return out;
}

function exclude(value: unknown, tree: ProjTree): unknown {
  if (Array.isArray(value))
    return value.map((e) => (isPlainObject(e) || Array.isArray(e) ? exclude(e, tree) : cloneValue(e)));
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) {
    const node = tree[k];
    if (v === undefined || node === true) continue;
    if (node !== undefined && (isPlainObject(v) || Array.isArray(v))) out[k] = exclude(v, node);
    else out[k] = cloneValue(v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Updates

const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$push', '$pull', '$addToSet', '$setOnInsert']);

interface UpdateStep {
  op: string;
  path: string;
  parts: string[];
  value: unknown;
  pull?: (el: unknown) => boolean;
  each?: unknown[];
}

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

function comparePathParts(a: string[], b: string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === y) continue;
    if (isIndex(x) && isIndex(y)) return Number(x) - Number(y);
    return compareStrings(x, y);
  }
  return a.length - b.length;
}

/** Validates an update document (operators, values, path conflicts) and returns a function applying it to a copy. */
export function compileUpdate(update: Update): (doc: Obj, isInsert: boolean) => Obj {
  if (!isPlainObject(update)) throw new Error('An update has to be an object of update operators');
  const ops = Object.keys(update);
  if (ops.length === 0) throw new Error('Update document requires atomic operators');
  const steps: UpdateStep[] = [];
  for (const [op, fields] of Object.entries(update as Obj)) {
    if (!op.startsWith('$'))
      throw new Error(`Update document requires atomic operators (found field '${op}')`);
    if (!UPDATE_OPERATORS.has(op)) throw new Error(`Unsupported update operator: ${op}`);
    if (fields === undefined) continue;
    if (!isPlainObject(fields))
      throw new Error(`Modifiers operate on fields but ${op} was given ${typeName(fields)}`);
    for (const [path, value] of Object.entries(fields)) {
      if (value === undefined) continue; // dropped, as the MongoDB client does with ignoreUndefined
      const step: UpdateStep = { op, path, parts: splitPath(path, 'update'), value };
      if (op === '$inc' && typeof value !== 'number') {
        throw new Error(`Cannot increment with non-numeric argument: {${path}: ${JSON.stringify(value)}}`);
      }
      if (op === '$push' || op === '$addToSet') {
        if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
          for (const k of Object.keys(value)) {
            if (k !== '$each') throw new Error(`Unsupported ${op} modifier: ${k}`);
          }
          if (!Array.isArray(value.$each)) throw new Error(`The argument to $each in ${op} must be an array`);
          step.each = value.$each;
        } else step.each = [value];
      }
      if (op === '$pull') step.pull = compilePullCondition(value, path);
      steps.push(step);
    }
  }
  steps.sort((a, b) => comparePathParts(a.parts, b.parts));
  for (let i = 1; i < steps.length; i++) {
    const a = steps[i - 1] as UpdateStep;
    const b = steps[i] as UpdateStep;
    if (b.parts.length >= a.parts.length && a.parts.every((p, j) => b.parts[j] === p)) {
      throw new Error(`Updating the path '${b.path}' would create a conflict at '${a.path}'`);
    }
  }
  return (doc, isInsert) => {
    const out = cloneValue(doc);
    for (const step of steps) {
      if (step.op === '$setOnInsert' && !isInsert) continue;
      applyStep(out, step);
    }
    return out;
  };
}

function compilePullCondition(value: unknown, path: string): (el: unknown) => boolean {
  if (isOperatorObject(value)) {
    const test = compileCondition(value, path);
    return (el) => test([el]);
  }
  if (isPlainObject(value)) {
    const pred = compileFilter(value);
    return (el) => isPlainObject(el) && pred(el);
  }
  if (value instanceof RegExp) {
    const re = toRegExp(value, undefined);
    return (el) => typeof el === 'string' && re.test(el);
  }
  return (el) => valuesEqual(el, value);
}

function getChild(container: unknown, key: string): unknown {
  if (Array.isArray(container)) return isIndex(key) ? container[Number(key)] : undefined;
  if (isPlainObject(container)) return container[key];
  return undefined;
}

function setChild(container: Obj | unknown[], key: string, value: unknown, path: string): void {
  if (Array.isArray(container)) {
    if (!isIndex(key)) throw new Error(`Cannot create field '${key}' in an array (path '${path}')`);
    const i = Number(key);
    while (container.length < i) container.push(null);
    container[i] = value;
  } else container[key] = value;
}

/** Walks to the parent of the last path component, creating embedded documents when `create`. */
function parentOf(doc: Obj, parts: string[], create: boolean, path: string): Obj | unknown[] | null {
  let cur: Obj | unknown[] = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i] as string;
    let next = getChild(cur, key);
    if (next === undefined) {
      if (!create) return null;
      next = {};
      setChild(cur, key, next, path);
    } else if (!isPlainObject(next) && !Array.isArray(next)) {
      if (!create) return null;
      throw new Error(`Cannot create field '${parts[i + 1]}' in element {${key}: ${JSON.stringify(next)}}`);
    }
    cur = next as Obj | unknown[];
  }
  return cur;
}

/** Sets a dotted path, creating embedded documents (used for upsert seeds too). */
function setPath(doc: Obj, parts: string[], value: unknown, path: string): void {
  const parent = parentOf(doc, parts, true, path) as Obj | unknown[];
  setChild(parent, parts[parts.length - 1] as string, value, path);
}

function applyStep(doc: Obj, step: UpdateStep): void {
  const { op, parts, path } = step;
  const last = parts[parts.length - 1] as string;
  if (op === '$unset') {
    const parent = parentOf(doc, parts, false, path);
    if (Array.isArray(parent)) {
      if (isIndex(last) && Number(last) < parent.length) parent[Number(last)] = null;
    } else if (parent) delete parent[last];
    return;
  }
  if (op === '$pull') {
    const parent = parentOf(doc, parts, false, path);
    const current = parent ? getChild(parent, last) : undefined;
    if (current === undefined) return;
    if (!Array.isArray(current)) throw new Error(`Cannot apply $pull to a non-array value (field '${path}')`);
    const pull = step.pull as (el: unknown) => boolean;
    setChild(
      parent as Obj | unknown[],
      last,
      current.filter((el) => !pull(el)),
      path,
    );
    return;
  }
  const parent = parentOf(doc, parts, true, path) as Obj | unknown[];
  const current = getChild(parent, last);
  switch (op) {
    case '$set':
    case '$setOnInsert':
      setChild(parent, last, cloneValue(step.value), path);
      return;
    case '$inc': {
      if (current === undefined) setChild(parent, last, step.value, path);
      else if (typeof current === 'number') setChild(parent, last, current + (step.value as number), path);
      else {
        throw new Error(
          `Cannot apply $inc to a value of non-numeric type: field '${path}' is of type ${typeName(current)}`,
        );
      }
      return;
    }
    case '$push':
    case '$addToSet': {
      if (current !== undefined && !Array.isArray(current)) {
        throw new Error(`The field '${path}' must be an array but is of type ${typeName(current)}`);
      }
      const arr = current === undefined ? [] : current;
      for (const item of step.each ?? []) {
        if (op === '$addToSet' && arr.some((e) => valuesEqual(e, item))) continue;
        arr.push(cloneValue(item));
      }
      if (current === undefined) setChild(parent, last, arr, path);
      return;
    }
    default:
      throw new Error(`Unsupported update operator: ${op}`);
  }
}

/** Finds documents by key equality ignoring null-vs-missing differences (for unique indexes: MongoDB indexes a missing field as null). */
export function uniqueKeyFilter(doc: Obj, fields: string[]): Filter | null {
  const filter: Filter = {};
  let nullish = false;
  for (const f of fields) {
    const leaves = collectLeaves(doc, f.split('.'));
    if (leaves.length !== 1) return null;
    const v = leaves[0];
    if (Array.isArray(v)) return null;
    if (isNullish(v)) nullish = true;
    filter[f] = v === undefined ? null : v;
  }
  return nullish ? filter : null;
}
