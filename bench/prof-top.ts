// npx tsx bench/prof-top.ts <file.cpuprofile> [count]
// The top frames of a V8 CPU profile (bench --cpu-prof writes one per scenario): self time by function and place,
// and total (inclusive) time of the same functions, as shares of all samples.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/prof-top.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const count = Number(countArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n: ProfileNode) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*?\/(services|gateway|bench|deploy)\//, '$1/');
  return `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
};

const self = new Map<string, number>();
const total = new Map<string, number>();
for (const id of profile.samples) {
  const node = byId.get(id);
  if (!node) continue;
  self.set(label(node), (self.get(label(node)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at) as ProfileNode);
    if (seen.has(l)) continue;
    seen.add(l);
    total.set(l, (total.get(l) ?? 0) + 1);
  }
}
const all = profile.samples.length;
const pct = (n: number) => `${((n / all) * 100).toFixed(1)}%`.padStart(6);
const top = (m: Map<string, number>, skip: (l: string) => boolean) =>
  [...m.entries()]
    .filter(([l]) => !skip(l))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([l, n]) => `${pct(n)}  ${l}`)
    .join('\n');
console.log(`${all} samples\n\nself time:\n${top(self, () => false)}`);
console.log(`\ntotal time (callers included):\n${top(total, (l) => /^\((root|program|idle)\)/.test(l))}`);
