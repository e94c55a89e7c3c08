import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_KEYS, configSchema } from '@nudge/platform';
import { describe, expect, it } from 'vitest';

const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));

/** The variable names that have a row in a markdown table: first cell is KEY or `KEY`. */
function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split(/\r?\n/)) {
    const match = /^\s*\|\s*`?([A-Z][A-Z0-9_]*)`?\s*\|/.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

describe('README configuration table', () => {
  it('has a row for every configuration variable (paste `npx tsx scripts/config-table.ts`)', () => {
    expect(existsSync(readmePath), 'README.md is missing at the repository root').toBe(true);
    const documented = documentedVariables(readFileSync(readmePath, 'utf8'));
    const missing = CONFIG_KEYS.filter((key) => !documented.has(key));
    expect(missing, 'configuration variables without a README row').toEqual([]);
  });

  it('every configuration variable has a description for the table', () => {
    const undescribed = CONFIG_KEYS.filter((key) => !configSchema.shape[key].description?.trim());
    expect(undescribed).toEqual([]);
  });
});
