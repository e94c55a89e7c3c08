import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalApi } from './internal-routes';

const servicesDir = resolve(import.meta.dirname, '../..');

/** Every `router.<method>('/internal/...')` in a service's http folder, as 'service METHOD path'. */
function declaredInCode(): string[] {
  const found: string[] = [];
  for (const service of readdirSync(servicesDir)) {
    const httpDir = join(servicesDir, service, 'src', 'http');
    let files: string[];
    try {
      files = readdirSync(httpDir).filter((f) => f.endsWith('.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(join(httpDir, file), 'utf8');
      for (const m of text.matchAll(/router\.(get|post|put|delete)\(\s*'(\/internal\/[^']*)'/g)) {
        found.push(`${service} ${m[1]?.toUpperCase()} ${m[2]}`);
      }
    }
  }
  return found.sort();
}

describe('internal routes', () => {
  it('every /internal route a service serves is declared in the contracts, and every declared one is served', () => {
    const declared = internalApi.map((r) => `${r.service} ${r.method} ${r.path}`).sort();
    expect(declaredInCode()).toEqual(declared);
  });

  it('declares each route once per service, under /internal', () => {
    const keys = internalApi.map((r) => `${r.service} ${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of internalApi) expect(r.path.startsWith('/internal/')).toBe(true);
  });
});
