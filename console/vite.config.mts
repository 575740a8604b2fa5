import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The operator console, built into dist/public/console by `npm run build` and served by the daemon at /console.
 * `npm run console:dev` serves it with live reload and sends the API calls to a daemon on DAEMON_URL.
 */
export default defineConfig({
  root,
  base: '/console/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  // The payouts CSV is checked in the browser by the daemon's own parser (src/payouts/cli/payout-csv.ts), on the
  // browser build of the same CSV library.
  resolve: { alias: { 'csv-parse/sync': 'csv-parse/browser/esm/sync' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/public/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The first screen stays small: each page is its own chunk, the libraries one shared chunk.
    chunkSizeWarningLimit: 600,
    sourcemap: false,
    // .vite/manifest.json: which files each entry and page load (the browser tests weigh the first screen with it).
    manifest: true,
    rolldownOptions: {
      onwarn(warning, warn) {
        // The component library marks its modules "use client" for React Server Components, which this app does not use.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/console/session'].map((path) => [path, { target: process.env.DAEMON_URL ?? 'http://127.0.0.1:3000', changeOrigin: false }]),
    ),
  },
});
