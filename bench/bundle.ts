import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleReport {
  /** JavaScript the reader's browser loads for the first page: index.html's scripts and module preloads. */
  firstLoad: { files: string[]; rawBytes: number; gzipBytes: number };
  /** Every JavaScript chunk, with whether the first load includes it (lazy chunks load later). */
  chunks: Array<{ file: string; rawBytes: number; gzipBytes: number; firstLoad: boolean }>;
}

/** Sizes of the built web app (web/dist), or null when it is not built. */
export async function measureBundle(dist: string): Promise<BundleReport | null> {
  const indexPath = join(dist, 'index.html');
  if (!existsSync(indexPath)) return null;
  const html = await readFile(indexPath, 'utf8');
  const referenced = new Set(
    [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1] as string),
  );
  const assets = (await readdir(join(dist, 'assets'))).filter((f) => f.endsWith('.js')).sort();
  const chunks = await Promise.all(
    assets.map(async (name) => {
      const file = `assets/${name}`;
      const bytes = await readFile(join(dist, file));
      return {
        file,
        rawBytes: bytes.length,
        gzipBytes: gzipSync(bytes, { level: 9 }).length,
        firstLoad: referenced.has(file),
      };
    }),
  );
  const first = chunks.filter((c) => c.firstLoad);
  return {
    firstLoad: {
      files: first.map((c) => c.file),
      rawBytes: first.reduce((n, c) => n + c.rawBytes, 0),
      gzipBytes: first.reduce((n, c) => n + c.gzipBytes, 0),
    },
    chunks,
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function bundleTable(report: BundleReport, budgetBytes: number): string {
  const lines = [
    '| web bundle | raw | gzip |',
    '|---|---:|---:|',
    ...report.chunks.map(
      (c) => `| ${c.file}${c.firstLoad ? ' (first load)' : ''} | ${kb(c.rawBytes)} | ${kb(c.gzipBytes)} |`,
    ),
    `| **reader's first load** | ${kb(report.firstLoad.rawBytes)} | **${kb(report.firstLoad.gzipBytes)}** (budget ${kb(budgetBytes)}) |`,
  ];
  return lines.join('\n');
}
