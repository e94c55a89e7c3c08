// The reader's first load alone (bench/first-load.ts against a fresh standalone), for a quick check of the budget.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStandalone } from '@nudge/standalone';
import { measureFirstLoad } from './first-load';

const dataDir = await mkdtemp(join(tmpdir(), 'nudge-first-load-'));
const app = await startStandalone({
  DATA_DIR: dataDir,
  PORT: '0',
  LOG_LEVEL: 'silent',
  WEB_DIST: process.env.WEB_DIST ?? resolve(dirname(fileURLToPath(import.meta.url)), '../web/dist'),
});
try {
  const load = await measureFirstLoad(app.url);
  if (load) {
    for (const r of load.requests) process.stdout.write(`${r.wireBytes}\t${r.encoding}\t${r.url}\n`);
    process.stdout.write(
      `first load: ${(load.wireBytes / 1024).toFixed(1)} KB over the wire (budget 150 KB)\n`,
    );
  }
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
