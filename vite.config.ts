import { defineConfig, type Plugin } from 'vite';
import { LAYOUT_NAMES } from './client/layouts/layouts.ts';
import { ISLAND_ENTRIES } from './islands/entries.ts';
import { browserAliases, type IslandRuntime, islandRuntime, RUNTIME_RECORD } from './islands/hydration-library.ts';

/**
 * The browser build: the island runtime, one chunk per island, and one stylesheet per layout, with
 * a manifest the server reads to inject hashed URLs (docs/decisions/0001-vite-without-a-framework.md).
 */

/** Writes the runtime next to the manifest: `npm start` rebuilds when the requested one differs. */
function recordRuntime(runtime: IslandRuntime): Plugin {
  return {
    name: 'vitrine-record-island-runtime',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: RUNTIME_RECORD, source: `${JSON.stringify({ runtime })}\n` });
    },
  };
}

// React DOM hydrates by default; ISLAND_RUNTIME=preact swaps in preact/compat, which islands reach
// through React's own import names (docs/decisions/0013-island-hydration-runtime.md).
const runtime = islandRuntime(process.env.ISLAND_RUNTIME);

export default defineConfig({
  base: '/assets/',
  resolve: {
    alias: Object.entries(browserAliases(runtime)).map(([name, replacement]) => ({
      find: new RegExp(`^${name}$`),
      replacement,
    })),
  },
  plugins: [recordRuntime(runtime)],
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
