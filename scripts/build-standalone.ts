// Builds the standalone process (`npm start`) into plain JavaScript that `node` runs without a loader:
// deploy/standalone/dist/main.mjs, the analytics engine's process (chdb-server.mjs), and for the benches, so that they
// measure what `npm start` runs, the host of `npm run bench`'s standalone process (standalone-host.mjs) and
// `npm run bench:reminders` (reminders-bench.mjs). See bench/RESULTS.md, "The core bench and memory" ("base
// memory").
//
// Run by `npm run build:standalone` (and `prestart`); the bench and the system tests call buildStandalone() first.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const STANDALONE_DIST = join(ROOT, 'deploy', 'standalone', 'dist');

const ENTRIES = {
  main: 'deploy/standalone/src/main.ts',
  'chdb-server': 'services/reporting/src/analytics/chdb-server.ts',
  'standalone-host': 'bench/standalone-host.ts',
  'reminders-bench': 'bench/reminders.ts',
};

/**
 * Left to node at run time: native addons (and the packages that load them), the adapters' drivers that are loaded
 * only when configured (the standalone process never loads them), and the build tools.
 */
const EXTERNAL = [
  'libsql',
  '@libsql/*',
  'chdb',
  'sharp',
  '@img/*',
  'mongodb',
  'bson',
  '@temporalio/*',
  'twilio',
  'nodemailer',
  'playwright-core',
  'esbuild',
  'tsx',
];

/**
 * React's production build: React and react-dom choose their build by `process.env.NODE_ENV`, which this project
 * gives its own meaning (production = refuse the embedded adapters; see services/platform/src/config.ts), so it is
 * replaced in React's files only, not in the product's nor in other packages (express's reading of it is unchanged).
 */
const reactProduction: Plugin = {
  name: 'react-production',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/].*\.js$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('process.env.NODE_ENV', '"production"'),
      loader: 'js',
    }));
  },
};

/** Writes each file through a rename, so a process starting while another build runs reads whole files. */
async function writeAtomically(file: string, contents: Uint8Array) {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

let building: Promise<string> | undefined;

/** Builds the bundle into deploy/standalone/dist (once per process); resolves with that directory. */
export function buildStandalone(): Promise<string> {
  building ??= (async () => {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: ENTRIES,
      outdir: STANDALONE_DIST,
      outExtension: { '.js': '.mjs' },
      // Chunks beside the entries: a chunk's import.meta.url finds chdb-server.mjs as its sibling.
      chunkNames: '[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Smaller sources (V8 keeps every module's source text): no whitespace or comments; names are kept as written.
      minifyWhitespace: true,
      minifySyntax: true,
      keepNames: true,
      legalComments: 'none',
      external: EXTERNAL,
      plugins: [reactProduction],
      // Bundled CommonJS packages call require() for node's modules.
      banner: {
        js: "import { createRequire as __nudgeCreateRequire } from 'node:module'; const require = __nudgeCreateRequire(import.meta.url);",
      },
      logLevel: 'warning',
      write: false,
    });
    await Promise.all(result.outputFiles.map((f) => writeAtomically(f.path, f.contents)));
    return STANDALONE_DIST;
  })();
  return building;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  buildStandalone().then(
    (dir) =>
      console.log(`built the standalone process into ${relative(ROOT, dir)} in ${Date.now() - started} ms`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
