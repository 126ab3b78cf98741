// Module hooks for tap: Node strips the types from .ts files itself (tap's type-strip-only), but
// it does not compile JSX, so .tsx files go through esbuild here, with an inline source map for
// coverage. Plain JavaScript: it is loaded before any TypeScript can be.
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

registerHooks({
  load(url, context, next) {
    if (!url.startsWith('file:') || !new URL(url).pathname.endsWith('.tsx')) return next(url, context);
    const file = fileURLToPath(url);
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      loader: 'tsx',
      jsx: 'automatic',
      format: 'esm',
      sourcemap: 'inline',
      sourcefile: file,
    });
    return { format: 'module', source: code, shortCircuit: true };
  },
});
