import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The dashboard's build: one Preact application under /dashboard/, into dist/dashboard-web, served
 * by the platform itself (src/dashboard/api). No CDN, no inline script: the page's CSP is `self` only.
 */
export default defineConfig({
  root: here,
  base: '/dashboard/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../../dist/dashboard-web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
});
