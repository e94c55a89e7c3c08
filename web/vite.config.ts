import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
];

export default defineConfig({
  plugins: [react()],
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
