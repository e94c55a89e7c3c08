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
    test: /node_modules[\\/](@reduxjs|redux|react-redux|redux-thunk|immer|reselect|redux-saga|@redux-saga|use-sync-external-store)[\\/]/,
    priority: 2,
  },
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
