import { defineConfig } from 'vite';
import { measureChunksByLength, REACT_STREAMING_BUILD } from './server/render/react-chunk-length.ts';

/** The server bundle `npm start` and the Docker image run: server/main.ts with its React tree and React, other deps external. */
export default defineConfig({
  publicDir: false,
  // React's development build renders a page ten times slower; `npm start` defaults NODE_ENV to
  // development for operator conveniences, not for that: React is bundled, production build only.
  ssr: { noExternal: ['react', 'react-dom'] },
  plugins: [
    {
      name: 'react-measures-chunks-by-length',
      transform(code, id) {
        return REACT_STREAMING_BUILD.test(id) ? { code: measureChunksByLength(code, id), map: null } : undefined;
      },
    },
  ],
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
