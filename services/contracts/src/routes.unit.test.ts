import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAGE_MAX, PageQuery } from './common';
import { internalApi } from './internal-routes';
import { SERVICES } from './route-types';
import { apiRoutes, browserRoutes, findRoute, largeBodyRoutes } from './routes';

// The product contract lives beside the repository: <repo>/../shared/spec.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const specDir = resolve(repoRoot, '../shared/spec');
const specs = ['reader.md', 'admin.md'].map((name) => ({
  name,
  text: readFileSync(resolve(specDir, name), 'utf8'),
}));

interface SpecCall {
  method: string;
  path: string;
  file: string;
}

/** `{id}` and `:id` both become `:`, so spec and table paths compare by shape. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z]+/g, ':');

/**
 * The rows of a spec's "Calls" table (section 7): first cell "METHOD /path?query (note)", where
 * "/api/payment/details, /cancel, /restart" names three paths under the same parent.
 */
function callsOf(file: string, text: string): SpecCall[] {
  const section = text.split(/^## /m).find((s) => s.startsWith('7.'));
  if (!section) throw new Error(`${file}: no section 7`);
  const calls: SpecCall[] = [];
  for (const line of section.split('\n')) {
    const cell = /^\|\s*(GET|POST|PUT|DELETE|PATCH)\s+([^|]+?)\s*\|/.exec(line);
    if (!cell) continue;
    const method = cell[1]!;
    const paths = cell[2]!
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((p) => p.trim().replace(/[?[].*$/, ''));
    const first = paths[0]!;
    for (const p of paths) {
      const full =
        p.startsWith('/api/') || p.startsWith('/auth/') ? p : `${first.slice(0, first.lastIndexOf('/'))}${p}`;
      calls.push({ method, path: full, file });
    }
  }
  return calls;
}

const specCalls = specs.flatMap(({ name, text }) => callsOf(name, text));
const allRoutes = [...apiRoutes, ...browserRoutes];
const key = (method: string, path: string) => `${method} ${shape(path)}`;
const tableKeys = new Set(allRoutes.map((r) => key(r.method, r.path)));

describe('apiRoutes against the spec call tables', () => {
  it('parses a plausible number of calls from both spec files', () => {
    expect(specCalls.filter((c) => c.file === 'reader.md').length).toBeGreaterThanOrEqual(28);
    expect(specCalls.filter((c) => c.file === 'admin.md').length).toBeGreaterThanOrEqual(35);
    expect(specCalls).toContainEqual({ method: 'POST', path: '/api/payment/restart', file: 'reader.md' });
  });

  it.each(specCalls.map((c) => [`${c.method} ${c.path}`, c] as const))('has %s', (_label, call) => {
    expect(tableKeys.has(key(call.method, call.path))).toBe(true);
  });

  it('covers every /api and /auth path mentioned anywhere in the specs', () => {
    const mentioned = specs.flatMap(({ text }) =>
      [...text.matchAll(/\/(?:api|auth)\/[A-Za-z0-9_{}\-/]+/g)].map((m) => m[0]),
    );
    expect(mentioned).toContain('/api/payment/verification');
    expect(mentioned).toContain('/auth/google');
    for (const path of mentioned) {
      const concrete = path.replace(/\{[^}]+\}/g, 'abc123').replace(/\/$/, '');
      const known = ['GET', 'POST', 'PUT', 'DELETE'].some((m) => findRoute(m, concrete) !== undefined);
      expect(known, path).toBe(true);
    }
  });

  it('routes every /api path under /api and browser paths under /auth', () => {
    for (const r of apiRoutes) expect(r.path.startsWith('/api/')).toBe(true);
    for (const r of browserRoutes) {
      expect(r.path.startsWith('/auth/')).toBe(true);
      expect(r.service).toBe('auth');
    }
  });
});

describe('apiRoutes table', () => {
  it('has no duplicate method + path (also not up to parameter names)', () => {
    const keys = allRoutes.map((r) => key(r.method, r.path));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names a known service, a summary and a source for every route, and attaches no schemas yet', () => {
    for (const r of allRoutes) {
      expect(SERVICES).toContain(r.service);
      expect(r.summary.length).toBeGreaterThan(3);
      expect(r.source).toMatch(/reader\.md|admin\.md|ours/);
    }
  });

  it('never routes /internal or the gateway’s own paths', () => {
    for (const r of apiRoutes) expect(r.path).not.toMatch(/internal|^\/api\/docs|^\/api\/dev\//);
  });

  it('assigns owners and access levels per the design', () => {
    const at = (method: string, path: string) => findRoute(method, path);
    expect(at('POST', '/api/user/auth')).toMatchObject({ service: 'auth', access: 'public' });
    expect(at('POST', '/api/user/signinbytoken/tok')).toMatchObject({ service: 'auth', access: 'link' });
    expect(at('GET', '/api/user/getnotificationdetails/u1')).toMatchObject({ access: 'link' });
    expect(at('PUT', '/api/user/updatenotificationdetails/u1')).toMatchObject({ access: 'link' });
    expect(at('POST', '/api/user/update')).toMatchObject({ service: 'auth', access: 'user' });
    expect(at('POST', '/api/user/update/u1')).toMatchObject({ service: 'auth', access: 'admin' });
    expect(at('POST', '/api/user/otpTransaction')).toMatchObject({ access: 'user' });
    expect(at('GET', '/api/sitesettings/fetch')).toMatchObject({ service: 'content', access: 'public' });
    expect(at('POST', '/api/logs/getallpost')).toMatchObject({ service: 'content', access: 'public' });
    expect(at('GET', '/api/comment/comments/t1')).toMatchObject({ service: 'engagement', access: 'public' });
    expect(at('POST', '/api/checkin')).toMatchObject({ service: 'engagement', access: 'link' });
    expect(at('POST', '/api/eventlogs')).toMatchObject({ service: 'reporting', access: 'public' });
    expect(at('POST', '/api/report/data')).toMatchObject({ service: 'reporting', access: 'user' });
    expect(at('GET', '/api/report/download')).toMatchObject({ service: 'reporting', access: 'user' });
    expect(at('POST', '/api/eventlogs/logs')).toMatchObject({ service: 'reporting', access: 'admin' });
    expect(at('POST', '/api/eventlogs/alllogs')).toMatchObject({ service: 'reporting', access: 'admin' });
    expect(at('POST', '/api/payment/verification')).toMatchObject({ service: 'billing', access: 'webhook' });
    expect(at('POST', '/api/payment/alldata')).toMatchObject({ service: 'billing', access: 'admin' });
    expect(at('GET', '/api/report')).toMatchObject({ service: 'reporting', access: 'admin' });
  });

  it('marks every call of the admin table admin, except the ones readers make too', () => {
    const sharedWithReaders = new Set(
      specCalls.filter((c) => c.file === 'reader.md').map((c) => key(c.method, c.path)),
    );
    for (const call of specCalls.filter((c) => c.file === 'admin.md')) {
      if (sharedWithReaders.has(key(call.method, call.path))) continue;
      // The report viewer's data is also for the report's access users (reporting decides per report).
      if (call.path.startsWith('/api/report/data') || call.path.startsWith('/api/report/download')) continue;
      const concrete = call.path.replace(/\{[^}]+\}/g, 'x1');
      expect(findRoute(call.method, concrete)?.access, `${call.method} ${call.path}`).toBe('admin');
    }
  });
});

describe('request body limits', () => {
  it('lets only admin routes take a body above BODY_LIMIT, and only the ones that carry an image or a logo', () => {
    const large = apiRoutes.filter((r) => r.largeBody !== undefined);
    expect(large.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'POST /api/promotion/add',
      'POST /api/promotion/update/:id',
      'POST /api/report/add',
      'POST /api/template/add',
      'POST /api/template/update/:id',
      'PUT /api/report/update/:id',
    ]);
    for (const r of large) {
      expect(r.access, r.path).toBe('admin');
      expect(r.largeBody, r.path).toBeGreaterThan(100 * 1024);
    }
    expect(largeBodyRoutes('content')).toContainEqual({
      route: 'POST /api/template/add',
      limit: 8 * 1024 * 1024,
    });
    expect(largeBodyRoutes('auth')).toEqual([]);
  });
});

describe('findRoute', () => {
  it('prefers literal paths over parameters', () => {
    expect(findRoute('POST', '/api/template/add')?.path).toBe('/api/template/add');
    expect(findRoute('POST', '/api/template/generate-content')?.path).toBe('/api/template/generate-content');
    expect(findRoute('POST', '/api/template/65f0c0ffee')?.path).toBe('/api/template/:id');
    expect(findRoute('GET', '/api/template/templates')?.path).toBe('/api/template/templates');
    expect(findRoute('POST', '/api/template/update/65f0')?.path).toBe('/api/template/update/:id');
  });

  it('lists literal paths before parametrised ones, so a first-match walk of the array agrees', () => {
    const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`);
    for (const r of allRoutes) {
      const concrete = r.path.replace(/:[A-Za-z]+/g, 'x');
      const firstMatch = allRoutes.find(
        (other) => other.method === r.method && pattern(other.path).test(concrete),
      );
      expect(firstMatch, `${r.method} ${r.path}`).toBe(r);
      expect(findRoute(r.method, concrete)).toBe(r);
    }
  });

  it('matches parameters, methods, HEAD as GET, a trailing slash and a query string', () => {
    expect(findRoute('GET', '/api/user/details/abc')?.path).toBe('/api/user/details/:id');
    expect(findRoute('HEAD', '/api/sitesettings/fetch')?.path).toBe('/api/sitesettings/fetch');
    expect(findRoute('get', '/api/sitesettings/fetch/')?.path).toBe('/api/sitesettings/fetch');
    expect(findRoute('POST', '/api/logs/getallpost?page=2&limit=5')?.path).toBe('/api/logs/getallpost');
    expect(findRoute('GET', '/auth/google/callback')?.path).toBe('/auth/google/callback');
  });

  it('finds nothing for unknown paths, wrong methods, empty or dot-segment parameters', () => {
    expect(findRoute('GET', '/api/nope')).toBeUndefined();
    expect(findRoute('GET', '/api/user/auth')).toBeUndefined();
    expect(findRoute('DELETE', '/api/template/1')).toBeUndefined();
    expect(findRoute('GET', '/api/user/details/')).toBeUndefined();
    expect(findRoute('GET', '/api/user/details/..')).toBeUndefined();
    expect(findRoute('GET', '/api/user/details/%2e%2e')).toBeUndefined();
    expect(findRoute('GET', '/api/user/details/a%2Fb')).toBeUndefined();
    expect(findRoute('GET', '/internal/users')).toBeUndefined();
    expect(findRoute('GET', '/api/user/details/a/b')).toBeUndefined();
  });
});

describe('paging bounds', () => {
  /** The numeric fields of a route's query and body that page through a list. */
  const PAGING = /^(page|limit|offset|skip|from)$/;
  type Bound = { route: string; field: string; maximum: number | undefined };
  const bounds: Bound[] = [];
  for (const r of [...apiRoutes, ...browserRoutes, ...internalApi]) {
    for (const schema of [r.query, r.body]) {
      if (!schema) continue;
      const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { maximum?: number; type?: string }>;
      };
      // A list filter's `from` day ('2026-11-28') is text, not a position.
      for (const [field, property] of Object.entries(js.properties ?? {}))
        if (PAGING.test(field) && property.type !== 'string')
          bounds.push({ route: `${r.method} ${r.path}`, field, maximum: property.maximum });
    }
  }

  it('every page, limit and list position a contract takes is bounded, so an offset from them is a safe integer', () => {
    expect(bounds.filter((b) => b.field === 'page').length).toBeGreaterThan(5);
    const largestLimit = Math.max(
      ...bounds.filter((b) => b.field === 'limit').map((b) => b.maximum ?? Infinity),
    );
    expect(largestLimit).toBeLessThanOrEqual(5_000);
    for (const { route, field, maximum } of bounds) {
      expect(maximum, `${route}: ${field}`).toBeLessThanOrEqual(PAGE_MAX);
      expect(Number.isSafeInteger((maximum ?? Infinity) * largestLimit), `${route}: ${field}`).toBe(true);
    }
  });

  it('refuses a page past the bound with a message', () => {
    const parsed = PageQuery.safeParse('9007199254740991');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(`page must be ${PAGE_MAX} or less`);
    expect(PageQuery.parse(String(PAGE_MAX))).toBe(PAGE_MAX);
  });
});
