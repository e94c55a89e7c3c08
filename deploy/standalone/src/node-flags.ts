import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT_PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'package.json');

/**
 * The node flags `npm start` runs the standalone process with: those between `node` and the script (or an `--import`)
 * in the root package.json's `start` script (V8's heap settings, see bench/RESULTS.md, "The core bench and memory"). The bench and
 * the soak start the process with the same flags, so they measure what a user runs.
 */
export function standaloneNodeFlags(startScript?: string): string[] {
  const script =
    startScript ??
    (JSON.parse(readFileSync(ROOT_PACKAGE, 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node') return [];
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('--') || word === '--import') break;
    flags.push(word);
  }
  return flags;
}
