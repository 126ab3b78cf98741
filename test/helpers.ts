import type { FastifyInstance } from 'fastify';
import { LAYOUT_NAMES } from '../client/layouts/layouts.ts';
import { ISLAND_ENTRIES } from '../islands/entries.ts';
import { buildServer, type ServerOptions } from '../server/app.ts';
import { manifestFromVite } from '../server/render/assets.ts';

/**
 * A manifest shaped like Vite's, so tests that do not build still get realistic script and
 * stylesheet URLs (the e2e and Docker tests use the real build).
 */
export const testAssets = manifestFromVite({
  ...Object.fromEntries(
    Object.entries(ISLAND_ENTRIES).map(([name, src]) => [
      src,
      name === 'runtime'
        ? { file: 'runtime-test.js', dynamicImports: ['islands/hydrate-island.ts'], isEntry: true }
        : { file: `${name}-test.js`, imports: ['_react.js'], isEntry: true },
    ]),
  ),
  'islands/hydrate-island.ts': { file: 'hydrate-island-test.js', imports: ['_react.js'] },
  '_react.js': { file: 'react-test.js' },
  ...Object.fromEntries(
    LAYOUT_NAMES.map((name) => [`client/layouts/${name}.css`, { file: `${name}-test.css`, isEntry: true }]),
  ),
});

/** The demo app as `npm start` builds it, minus the build: for `inject()` tests. */
export function demoServer(overrides: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  return buildServer({ sites: 'config/sites.json', contentDir: 'content', assets: testAssets, ...overrides });
}

/** Host headers of demo storefronts. */
export const HOSTS = {
  ch: 'www.halden.ch',
  de: 'www.halden.de',
  uk: 'www.halden.co.uk',
  ie: 'www.halden.ie',
} as const;
