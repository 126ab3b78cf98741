import { defineConfig } from 'vite';

/** The server bundle `npm start` and the Docker image run: server/main.ts with its React tree and React, other deps external. */
export default defineConfig({
  publicDir: false,
  // React's development build renders a page ten times slower; `npm start` defaults NODE_ENV to
  // development for operator conveniences, not for that: React is bundled, production build only.
  ssr: { noExternal: ['react', 'react-dom'] },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
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
