import { defineConfig } from 'vite';
import { LAYOUT_NAMES } from './client/layouts/layouts.ts';

/**
 * The browser build: the island runtime, one chunk per island, and one stylesheet per layout, with
 * a manifest the server reads to inject hashed URLs (docs/decisions/0001-vite-without-a-framework.md).
 */
export const ISLAND_ENTRIES = {
  runtime: 'islands/main.ts',
  header: 'islands/header/Header.tsx',
  parallax: 'islands/parallax/Parallax.tsx',
  price: 'islands/price/Price.tsx',
};

export default defineConfig({
  base: '/assets/',
  // Islands keep React's API but hydrate with Preact in the browser: React DOM's client alone costs
  // a long task to evaluate on a slow phone (docs/decisions/0013-preact-for-island-hydration.md).
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
    ],
  },
  publicDir: false,
  build: {
    outDir: 'dist/client',
    assetsDir: '',
    manifest: true,
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        ...ISLAND_ENTRIES,
        ...Object.fromEntries(LAYOUT_NAMES.map((name) => [`layout-${name}`, `client/layouts/${name}.css`])),
      },
      // Island chunks are imported by URL at run time: keep their default export.
      preserveEntrySignatures: 'exports-only',
    },
  },
});
