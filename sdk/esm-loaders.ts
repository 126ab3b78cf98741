import type { Loaders } from './live-preview/live-preview.ts';

/**
 * The chunks the ES module entry (index.ts) loads on demand, as the site's own bundler splits them:
 * the sanitiser the first time the editor sends HTML, the visual builder in a builder window, and
 * collaboration once the editor enables it, as the standalone script does
 * (docs/decisions/0168-es-entry-starts-collaboration.md).
 */
export const esmLoaders: Loaders = {
  sanitizer: () => import('./sanitize.ts').then((chunk) => chunk.sanitizeHtml),
  builder: () => import('./builder/builder.ts'),
  collab: () => import('./collab/collab.ts'),
};
