import { defineConfig } from 'vite';

/** The server bundle `npm start` and the Docker image run: server/main.ts with its React tree, deps external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'server/main.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node24',
    sourcemap: true,
    minify: false,
    rollupOptions: { output: { entryFileNames: 'main.js' } },
  },
});
