import { createHmac } from 'node:crypto';
import type { RouteContract } from '@nudge/contracts';
import fc from 'fast-check';
import { z } from 'zod';

// fast-check arbitraries for the fuzz suite, built from each route's zod contract. zod-fast-check only
// knows zod 3 (and fast-check 3); our zod 4 schemas go through zod's own JSON Schema export (input side), and the
// arbitraries are written from that shape: valid-shaped values, and hostile ones (wrong types, huge strings, nested
// objects, MongoDB operators, __proto__, NUL bytes, bad ids, paging extremes).

type JsonSchema = Record<string, any>;

/** The request the fuzz sends: path (with query), the body's raw bytes and headers besides the token. */
export interface FuzzRequest {
  method: string;
  path: string;
  /** JSON text, or raw bytes (a body that is not UTF-8). */
  body?: string | Uint8Array;
  headers: Record<string, string>;
  /** How the request was made, for the report of a failure. */
  kind: string;
}

export interface Pools {
  /** Real ids of the world's objects (posts, users, comments...), which valid-shaped ids are often drawn from. */
  ids: string[];
  /** Real post ids: what a field or parameter naming a post (templateid, /api/template/:id) is drawn from. */
  posts: string[];
}

/** The pool for a field: a field that names a post takes post ids. */
const poolFor = (name: string, pools: Pools): Pools =>
  /template|post/i.test(name) && pools.posts.length > 0 ? { ...pools, ids: pools.posts } : pools;

const jsonSchemaOf = (schema: z.ZodType | undefined): JsonSchema | undefined =>
  schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : undefined;

/** A valid-shaped value for a JSON Schema (lengths kept small; refinements the schema cannot state are not met). */
export function fromSchema(js: JsonSchema | undefined, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  if (!js || depth > 6) return fc.constant(undefined);
  if ('const' in js) return fc.constant(js.const);
  if (Array.isArray(js.enum)) return fc.constantFrom(...js.enum);
  const alternatives = js.anyOf ?? js.oneOf;
  if (Array.isArray(alternatives))
    return fc.oneof(...alternatives.map((a: JsonSchema) => fromSchema(a, pools, depth + 1)));
  if (Array.isArray(js.allOf) && js.allOf.length > 0) return fromSchema(js.allOf[0], pools, depth + 1);
  const type = Array.isArray(js.type) ? js.type[0] : js.type;
  switch (type) {
    case 'string':
      return stringArb(js, pools);
    case 'integer':
      return fc.integer({
        min: Math.max(js.minimum ?? -1000, -1_000_000),
        max: Math.min(js.maximum ?? 1000, 1_000_000),
      });
    case 'number':
      return fc.double({
        min: Math.max(js.minimum ?? -1000, -1_000_000),
        max: Math.min(js.maximum ?? 1000, 1_000_000),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(js.items, pools, depth + 1), {
        minLength: js.minItems ?? 0,
        maxLength: Math.max(js.minItems ?? 0, Math.min(js.maxItems ?? 3, 3)),
      });
    case 'object': {
      const properties: Record<string, JsonSchema> = js.properties ?? {};
      const required = new Set<string>(js.required ?? []);
      const fields = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [
          key,
          fromSchema(value, poolFor(key, pools), depth + 1),
        ]),
      );
      const record = fc.record(fields, { requiredKeys: Object.keys(fields).filter((k) => required.has(k)) });
      if (js.additionalProperties && typeof js.additionalProperties === 'object') {
        return fc
          .tuple(
            record,
            fc.dictionary(
              fc.string({ minLength: 1, maxLength: 8 }),
              fromSchema(js.additionalProperties, pools, depth + 1),
              {
                maxKeys: 3,
              },
            ),
          )
          .map(([a, b]) => ({ ...b, ...a }));
      }
      return record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArb(js: JsonSchema, pools: Pools): fc.Arbitrary<string> {
  if (js.format === 'email') return fc.emailAddress();
  if (js.format === 'uri' || js.format === 'url') return fc.webUrl();
  if (js.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (typeof js.pattern === 'string') {
    let pattern: RegExp;
    try {
      pattern = new RegExp(js.pattern);
    } catch {
      return fc.string({ maxLength: 20 });
    }
    const matching = fc.stringMatching(pattern).filter((s) => s.length <= 2000);
    // Mostly real ids (those the field's rules allow), so that requests reach past the lookups to the writes they
    // guard: a refusal after a write would otherwise go unseen.
    const fitting = pools.ids.filter(
      (id) => pattern.test(id) && id.length >= (js.minLength ?? 0) && id.length <= (js.maxLength ?? Infinity),
    );
    if (fitting.length > 0) {
      return fc.oneof(
        { arbitrary: fc.constantFrom(...fitting), weight: 3 },
        { arbitrary: matching, weight: 1 },
      );
    }
    return matching;
  }
  const minLength = js.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(js.maxLength ?? 40, 40));
  const text = fc.string({ minLength, maxLength });
  return pools.ids.length > 0 && minLength <= 24 && maxLength >= 24
    ? fc.oneof(text, fc.constantFrom(...pools.ids))
    : text;
}

/** Nests a value `depth` objects (or arrays) deep. */
const nest = (depth: number, asArray: boolean): unknown => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
};

/** Values that a careful service refuses (or treats as plain data), whatever field they land in. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    { $gt: '' },
    { $ne: null },
    { $where: 'sleep(1000) || true' },
    { $regex: '.*' },
    { $in: ['a', 'b'] },
    { $expr: { $eq: [1, 1] } },
    '$gt',
    '$where',
    '__proto__',
    'constructor',
    'not-an-id',
    'aaaaaaaaaaaaaaaaaaaaaaaz',
    'aaaaaaaaaaaaaaaaaaaaaaaa',
    '000000000000000000000000',
    '../../../etc/passwd',
    '<script>alert(1)</script>',
    "'; DROP TABLE users; --",
    '\ud800',
    '',
    ' ',
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    0.5,
    [],
    {},
    [null],
    { toString: 'x', valueOf: 'y' },
  ),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.integer({ min: 20, max: 3000 }).chain((depth) => fc.boolean().map((asArray) => nest(depth, asArray))),
  fc.array(fc.string({ maxLength: 5 }), { minLength: 1000, maxLength: 5000 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  '$gt',
  'token',
  'role',
  'status',
  '_id',
  'a.b',
];

/** JSON text for a value; an own `__proto__` key survives (JSON.stringify keeps own properties). */
const setOwn = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/** Changes one field (existing or new) of a valid-shaped object to a hostile value, at any depth of its tree. */
const mutate = (valid: unknown, path: number, key: string, value: unknown): unknown => {
  if (!valid || typeof valid !== 'object' || Array.isArray(valid)) return value;
  const copy: Record<string, unknown> = { ...(valid as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const nestedKeys = keys.filter((k) => copy[k] && typeof copy[k] === 'object' && !Array.isArray(copy[k]));
  if (nestedKeys.length > 0 && path % 3 === 0) {
    const k = nestedKeys[path % nestedKeys.length] as string;
    setOwn(copy, k, mutate(copy[k], Math.floor(path / 3), key, value));
    return copy;
  }
  // Mostly an existing field (the rest of the request stays valid, so the refusal is this field's), else a new key.
  const target = keys.length > 0 && path % 4 !== 0 ? (keys[path % keys.length] as string) : key;
  setOwn(copy, target, value);
  return copy;
};

const RAW_BODIES = [
  '{"a":',
  'not json',
  '\u0000',
  '[[[[[[[[[[',
  '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}}}',
  '{"token":{"$ne":null}}',
  `{"a":"${'\\u0000'.repeat(10)}"}`,
  '"just a string"',
  '12345678901234567890',
  'null',
];

const QUERY_HOSTILE = [
  'page=-1&limit=-1',
  'page=0&limit=0',
  'page=1e20&limit=1e20',
  'page=9007199254740993&limit=9007199254740993',
  'page=abc&limit=xyz',
  'page=1&page=2&limit=5&limit=6',
  'page[$gt]=1&limit[$gt]=1',
  'page[__proto__][x]=1',
  '__proto__[role]=admin&constructor[prototype][role]=admin',
  'id[$ne]=x&view[$gt]=',
  'id=%00&view=%00',
  `email=${'x'.repeat(10_000)}`,
  'qlid[$ne]=x&a=1',
  'limit=100000000&page=1',
  'page=1.5&limit=2.5',
  'w=99999',
  't[$ne]=1',
];

const PATH_HOSTILE = [
  '%24gt',
  '%00',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  '%E0%A4%A',
  '%2e%2e',
  '..%2F..%2Fetc',
  'aaaaaaaaaaaaaaaaaaaaaaaz',
  '000000000000000000000000',
  '%7B%22%24gt%22%3A%22%22%7D',
  '-1',
  'null',
];

const encodeQuery = (value: unknown): string => {
  if (!value || typeof value !== 'object') return '';
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`,
    )
    .join('&');
};

const paramNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);

/**
 * Requests for one route: valid-shaped from its contract, or hostile in its body, its query, its path parameters
 * or its encoding. `allowIds` are the ids its path parameters may address (the fixture keeps some objects away from
 * the admin write routes).
 */
export function requestArb(route: RouteContract, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const params = jsonSchemaOf(route.params);
  const query = jsonSchemaOf(route.query);
  const body = jsonSchemaOf(route.body);
  const names = paramNames(route.path);
  const validParam = (name: string) => {
    const schema = params?.properties?.[name] as JsonSchema | undefined;
    const pool = poolFor(/\/template\//.test(route.path) ? 'template' : name, pools);
    const fromContract = schema ? stringArb(schema, pool) : fc.string({ minLength: 1, maxLength: 30 });
    return fc.oneof(fromContract, pool.ids.length > 0 ? fc.constantFrom(...pool.ids) : fromContract);
  };
  const paramArb = (hostile: boolean) =>
    fc.tuple(
      ...names.map((name) =>
        hostile
          ? fc.oneof(fc.constantFrom(...PATH_HOSTILE), validParam(name).map(encodeURIComponent))
          : validParam(name).map(encodeURIComponent),
      ),
    );
  const validQuery = query ? fromSchema(query, pools).map(encodeQuery) : fc.constant('');
  const validBody = body ? fromSchema(body, pools) : fc.constant({});
  const hasBody = route.method !== 'GET';

  const build = (
    kind: string,
    segments: string[],
    qs: string,
    payload: { raw?: string; value?: unknown },
    headers: Record<string, string> = {},
  ): FuzzRequest => {
    let i = 0;
    const path = route.path.replace(/:[A-Za-z]+/g, () => segments[i++] ?? 'x');
    const raw = payload.raw ?? (payload.value === undefined ? undefined : JSON.stringify(payload.value));
    return {
      method: route.method,
      path: qs ? `${path}?${qs}` : path,
      ...(hasBody && raw !== undefined ? { body: raw } : {}),
      headers: hasBody && raw !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
      kind,
    };
  };

  const valid = fc
    .tuple(paramArb(false), validQuery, validBody)
    .map(([p, q, b]) => build('valid', p, q, { value: b }));
  const hostileField = fc
    .tuple(paramArb(false), validQuery, validBody, fc.nat(), fc.constantFrom(...HOSTILE_KEYS), hostileValue)
    .map(([p, q, b, at, key, value]) => build('hostile-field', p, q, { value: mutate(b, at, key, value) }));
  const hostileBody = fc
    .tuple(
      paramArb(false),
      validQuery,
      fc.oneof(
        hostileValue.map((value) => ({ value })),
        fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw })),
      ),
    )
    .map(([p, q, payload]) => build('hostile-body', p, q, payload));
  const hostileQuery = fc
    .tuple(paramArb(false), fc.constantFrom(...QUERY_HOSTILE), validBody)
    .map(([p, q, b]) => build('hostile-query', p, q, { value: b }));
  const hostilePath = fc
    .tuple(paramArb(true), validQuery, validBody)
    .map(([p, q, b]) => build('hostile-path', p, q, { value: b }));
  const hostileEncoding = fc
    .tuple(
      paramArb(false),
      validQuery,
      validBody,
      fc.constantFrom<Record<string, string>>(
        { 'content-encoding': 'gzip' },
        { 'content-encoding': 'deflate' },
        { 'content-encoding': 'br' },
        { 'content-encoding': 'x-unknown' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/json; charset=utf-16' },
        { 'content-type': 'multipart/form-data; boundary=x' },
      ),
    )
    .map(([p, q, b, headers]) =>
      build(`hostile-encoding ${Object.values(headers)[0]}`, p, q, { value: b }, headers),
    );

  const hostile =
    names.length > 0
      ? [hostileField, hostileBody, hostileQuery, hostilePath, hostileEncoding]
      : [hostileField, hostileBody, hostileQuery, hostileEncoding];
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    ...hostile.map((arbitrary) => ({ arbitrary, weight: arbitrary === hostileField ? 2 : 1 })),
  );
}

// ── invalid Unicode in every string field ───────────────────────────────────────────────────────────────────────

/** Strings no store can keep as written: lone surrogates, a reversed pair, a high surrogate at the very end. */
export const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800', 'x\ud83d'];
/** Percent-escapes that are not UTF-8: a stray byte, an overlong form, an encoded surrogate, past U+10FFFF, cut short. */
export const NON_UTF8_ESCAPES = ['%FF', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%E2%82', '%80'];

type Path = (string | number)[];

/** The paths of every string in a JSON value, and of every object holding keys (whose keys are strings too). */
function textPaths(
  value: unknown,
  path: Path = [],
  out: { strings: Path[]; objects: Path[] } = { strings: [], objects: [] },
) {
  if (typeof value === 'string') out.strings.push(path);
  else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) textPaths(v, [...path, i], out);
  } else if (value && typeof value === 'object') {
    out.objects.push(path);
    for (const [k, v] of Object.entries(value)) textPaths(v, [...path, k], out);
  }
  return out;
}

/** A copy of `value` with `change` applied at `path` (the value itself when the path is empty). */
function changedAt(value: unknown, path: Path, change: (v: unknown) => unknown): unknown {
  if (path.length === 0) return change(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? changedAt(v, rest, change) : v));
  const copy = { ...(value as Record<string, unknown>) };
  copy[head as string] = changedAt(copy[head as string], rest, change);
  return copy;
}

/**
 * Requests that put invalid Unicode, one field at a time, into every string field of a route: each string of a
 * valid-shaped body (and a key of each of its objects) with a lone surrogate (JSON sends it escaped), the whole body
 * as bytes that are not UTF-8, each query value and each path parameter with percent-escapes that are not UTF-8.
 * Deterministic for a seed: the same sweep every run.
 */
export function invalidUnicodeRequests(route: RouteContract, pools: Pools, seed: number): FuzzRequest[] {
  const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { numRuns: 1, seed })[0] as T;
  const names = paramNames(route.path);
  const params = jsonSchemaOf(route.params);
  const paramValues = names.map((name) => {
    const schema = params?.properties?.[name] as JsonSchema | undefined;
    const pool = poolFor(/\/template\//.test(route.path) ? 'template' : name, pools);
    // A segment the route table takes (no slash or backslash, no dot-segment): the request reaches its service.
    const value = schema ? stringArb(schema, pool) : fc.string({ minLength: 1, maxLength: 30 });
    return encodeURIComponent(
      sample(value.filter((v) => v !== '' && v !== '.' && v !== '..' && !/[/\\]/.test(v))),
    );
  });
  const query = route.query
    ? (sample(fromSchema(jsonSchemaOf(route.query), pools)) as Record<string, unknown>)
    : {};
  const body = route.body ? sample(fromSchema(jsonSchemaOf(route.body), pools)) : {};
  const hasBody = route.method !== 'GET';
  const queryText = (poisoned?: string, badEscape = '') =>
    Object.entries(query ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => {
        const text = encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v));
        return `${encodeURIComponent(k)}=${text}${k === poisoned ? badEscape : ''}`;
      })
      .join('&');
  let n = 0;
  const next = <T>(list: readonly T[]) => list[n++ % list.length] as T;
  const build = (
    kind: string,
    segments: string[],
    qs: string,
    payload?: string | Uint8Array,
  ): FuzzRequest => {
    let i = 0;
    const path = route.path.replace(/:[A-Za-z]+/g, () => segments[i++] ?? 'x');
    const withBody = hasBody && payload !== undefined;
    return {
      method: route.method,
      path: qs ? `${path}?${qs}` : path,
      ...(withBody ? { body: payload } : {}),
      headers: withBody ? { 'content-type': 'application/json' } : {},
      kind,
    };
  };
  const requests: FuzzRequest[] = [];
  const validBody = JSON.stringify(body);
  if (hasBody) {
    const { strings, objects } = textPaths(body);
    for (const at of strings) {
      const poison = next(LONE_SURROGATES);
      const poisoned = changedAt(body, at, (v) => `${String(v)}${poison}`);
      requests.push(
        build(
          `invalid-unicode body ${at.join('.') || '(root)'}`,
          paramValues,
          queryText(),
          JSON.stringify(poisoned),
        ),
      );
    }
    for (const at of objects) {
      const poisoned = changedAt(body, at, (v) => ({ ...(v as object), [`k${next(LONE_SURROGATES)}`]: 'v' }));
      requests.push(
        build(
          `invalid-unicode body key at ${at.join('.') || '(root)'}`,
          paramValues,
          queryText(),
          JSON.stringify(poisoned),
        ),
      );
    }
    // a string that is not there yet (an unknown field) holds one too
    if (body && typeof body === 'object' && !Array.isArray(body))
      requests.push(
        build(
          'invalid-unicode body new field',
          paramValues,
          queryText(),
          JSON.stringify({ ...body, note: next(LONE_SURROGATES) }),
        ),
      );
    // the body's bytes: JSON with bytes that are not UTF-8 inside a string
    const rest = validBody.length > 2 && validBody.startsWith('{') ? `",${validBody.slice(1)}` : '"}';
    const bytes = Buffer.concat([Buffer.from('{"note":"x'), Buffer.from([0xff, 0xfe]), Buffer.from(rest)]);
    requests.push(build('invalid-unicode body bytes', paramValues, queryText(), bytes));
  }
  for (const key of Object.keys(query ?? {}).filter((k) => query[k] !== undefined))
    requests.push(
      build(
        `invalid-unicode query ${key}`,
        paramValues,
        queryText(key, next(NON_UTF8_ESCAPES)),
        hasBody ? validBody : undefined,
      ),
    );
  // a query parameter the route does not know
  requests.push(
    build(
      'invalid-unicode query new',
      paramValues,
      [queryText(), `q=${next(NON_UTF8_ESCAPES)}`].filter(Boolean).join('&'),
      hasBody ? validBody : undefined,
    ),
  );
  names.forEach((name, i) => {
    const segments = paramValues.map((v, j) => (j === i ? `${v}${next(NON_UTF8_ESCAPES)}` : v));
    requests.push(
      build(`invalid-unicode path ${name}`, segments, queryText(), hasBody ? validBody : undefined),
    );
  });
  return requests;
}

// ── tampered and foreign link tokens ───────────────────────────────────────────────────────────────────────────

/** Where a link route takes its credential: a path parameter, or a query parameter (`qlid`, a click's `u`). */
export function linkSlots(route: RouteContract): { params: string[]; query: string[] } {
  const query = jsonSchemaOf(route.query)?.properties ?? {};
  return {
    params: paramNames(route.path),
    query: Object.keys(query).filter((k) => k === 'qlid' || k === 'u'),
  };
}

const flipChar = (text: string, at: number) => {
  const c = text[at] as string;
  const to = c === 'A' ? 'B' : c === 'a' ? 'b' : c === '0' ? '1' : 'A';
  return `${text.slice(0, at)}${to}${text.slice(at + 1)}`;
};

/**
 * Credentials a link route must refuse, from the real ones (`genuine`: e-mail links of each purpose, a check-in
 * link, a session): each changed where it counts (a character of its header, claims or signature, never the last
 * character of a part, whose low bits may be padding), cut, doubled, re-signed with another key, its claims moved
 * under another token's signature, its algorithm set to none; and each genuine one on the routes of another purpose.
 */
export function tamperedLinks(
  genuine: Record<string, string>,
  foreignKey: Buffer,
): { kind: string; token: string }[] {
  const out: { kind: string; token: string }[] = [];
  const tokens = Object.entries(genuine).filter(([, t]) => t);
  for (const [name, token] of tokens) {
    const parts = token.split('.');
    if (parts.length === 3) {
      parts.forEach((part, p) => {
        if (part.length < 2) return;
        const at = Math.floor((part.length - 1) / 2);
        const changed = [...parts];
        changed[p] = flipChar(part, at);
        out.push({ kind: `${name}: part ${p} changed`, token: changed.join('.') });
      });
      const [header, payload] = parts as [string, string, string];
      const resigned = createHmac('sha256', foreignKey).update(`${header}.${payload}`).digest('base64url');
      out.push({ kind: `${name}: signed with another key`, token: `${header}.${payload}.${resigned}` });
      const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
      out.push({ kind: `${name}: alg none`, token: `${none}.${payload}.` });
      for (const [other, otherToken] of tokens) {
        const otherParts = otherToken.split('.');
        if (other === name || otherParts.length !== 3) continue;
        out.push({
          kind: `${name}: claims under ${other}'s signature`,
          token: `${otherParts[0]}.${payload}.${otherParts[2]}`,
        });
      }
    } else {
      out.push({
        kind: `${name}: a character changed`,
        token: flipChar(token, Math.floor(token.length / 2)),
      });
    }
    out.push({ kind: `${name}: cut short`, token: token.slice(0, Math.floor(token.length * 0.7)) });
    out.push({ kind: `${name}: doubled`, token: `${token}${token}` });
  }
  return out;
}

// ── slow and partial bodies ─────────────────────────────────────────────────────────────────────────────────

/** How a request's body goes wrong on the wire: shorter than declared, then the client half-closes; cut off (the
 * connection destroyed mid-body); or stalled (the client stops sending and waits). */
export type BodyFault = 'short' | 'cut' | 'stall';

/** A request whose body never arrives whole. */
export interface PartialBody {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** `length`: a Content-Length of `declared` bytes; `chunked`: one chunk of `declared` bytes, never finished. */
  framing: 'length' | 'chunked';
  declared: number;
  /** The bytes that are sent (fewer than declared), in `pieces` writes `gapMs` apart. */
  sent: Buffer;
  pieces: number;
  gapMs: number;
  fault: BodyFault;
  /** With an admin's session in the Authorization header (the routes that take large bodies read more for it). */
  asAdmin: boolean;
  kind: string;
}

/**
 * Partial bodies for one route, from its generated requests (valid-shaped and hostile): a prefix of the body is sent,
 * sometimes under a declared length far larger than the route's limit.
 */
export function partialBodyArb(route: RouteContract, pools: Pools): fc.Arbitrary<PartialBody> {
  return fc
    .tuple(
      requestArb(route, pools),
      fc.constantFrom<BodyFault>('short', 'cut', 'stall'),
      fc.constantFrom<'length' | 'chunked'>('length', 'chunked'),
      fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      fc.constantFrom(0, 0, 0, 1_000, 200_000, 5_000_000),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 0, max: 150 }),
      fc.boolean(),
    )
    .map(([req, fault, framing, fraction, extra, pieces, gapMs, asAdmin]) => {
      const body = Buffer.from(req.body ?? '{}');
      const declared = body.length + extra;
      const sent = body.subarray(0, Math.min(declared - 1, Math.floor(body.length * fraction)));
      return {
        method: req.method,
        path: req.path,
        headers: { 'content-type': 'application/json', ...req.headers },
        framing,
        declared,
        sent,
        pieces,
        gapMs,
        fault,
        asAdmin,
        kind: `${fault} ${framing} ${sent.length}/${declared} (${req.kind})`,
      };
    });
}
