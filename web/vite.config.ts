import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const backend = 'http://localhost:8080';

/** Vendor chunks that change rarely, so a release of the app does not invalidate them in browsers' caches. */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 4 },
  {
    name: 'router',
    test: /node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
    priority: 3,
  },
  {
    name: 'state',
    // reselect and use-sync-external-store's shim are left out: only the admin chunk's data grid uses them, and a
    // group would put them in the reader's first load (DESIGN.md §8).
    test: /node_modules[\\/](@reduxjs|redux|react-redux|redux-thunk|immer|redux-saga|@redux-saga)[\\/]|node_modules[\\/]use-sync-external-store[\\/]with-selector/,
    priority: 2,
  },
  // Used by the admin chunk's data grid and charts only; its own chunk keeps it out of the reader's first load.
  { name: 'admin-vendor', test: /node_modules[\\/]reselect[\\/]/, priority: 5 },
  { name: 'toastify', test: /node_modules[\\/](react-toastify|clsx)[\\/]/, priority: 1 },
  // The app's own modules that the first page shares with lazy pages: one chunk instead of several small ones
  // (each response costs about 1 KB of headers on the first load).
  {
    name: 'app',
    test: /web[\\/]src[\\/](?!features[\\/]admin[\\/])(?!.*\.css$)/,
    minShareCount: 2,
    priority: 0,
  },
];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest|ico)$/;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every compressible file of the
 * build, once, at build time; the gateway serves them with Content-Encoding (gateway/src/web.ts).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'nudge-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries.filter((e) => e.isFile() && COMPRESSIBLE.test(e.name));
      await Promise.all(
        files.map(async (entry) => {
          const file = join(entry.parentPath, entry.name);
          const bytes = await readFile(file);
          if (bytes.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzipped(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: vendorGroups } },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/auth': { target: backend, changeOrigin: true },
    },
  },
});
