import { defineConfig } from 'vite';

/**
 * The preview workbench's bundle (docs/decisions/0011-workbench.md): one IIFE,
 * `dist/workbench/workbench.js`, served by server/routes/workbench.ts at /__workbench/workbench.js.
 * It carries the real @contentstack/advanced-post-message (a devDependency: only the build needs it).
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/workbench',
    emptyOutDir: true,
    copyPublicDir: false,
    target: 'es2022',
    lib: {
      entry: 'workbench/main.ts',
      formats: ['iife'],
      name: 'VitrineWorkbench',
      fileName: () => 'workbench.js',
    },
  },
});
