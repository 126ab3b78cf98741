import { defineConfig, minifySync } from 'vite';
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
    {
      // Its source text is every island page's inline boot script (islands/boot-script.ts): sent
      // without comments and spaces, names kept (the text is the script, not a bundle of it).
      name: 'boot-script-minified',
      transform(code, id) {
        if (!id.endsWith('/islands/after-paint.ts')) return undefined;
        const minified = minifySync(id, code, { compress: false, mangle: false });
        if (minified.errors.length > 0) throw new Error(`minifying ${id}: ${minified.errors[0]?.message}`);
        return { code: minified.code, map: null };
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
