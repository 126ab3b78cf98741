import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { LAYOUT_NAMES } from '../client/layouts/layouts.ts';
import { ISLAND_ENTRIES } from '../islands/entries.ts';
import { buildServer, type ServerOptions } from '../server/app.ts';
import { loadSitesConfig } from '../server/config/sites.ts';
import { createUpstreamContentService, type UpstreamContentOptions } from '../server/content/upstream.ts';
import type { PreviewConfig } from '../server/preview/config.ts';
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

/**
 * The demo app as `npm start` builds it, minus the build: for `inject()` tests. It does not shed on
 * event-loop delay: it shares the loop with the test runner on a loaded CI machine, whose stalls are
 * not the load a test is about (a 503 there was a flake). Tests of shedding set `pressure` themselves.
 */
export function demoServer(overrides: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  return buildServer({
    sites: 'config/sites.json',
    contentDir: 'content',
    assets: testAssets,
    pressure: { maxEventLoopDelay: 0 },
    ...overrides,
  });
}

/**
 * The demo app without `forceHost`, closed with the test: a Host header that names no storefront
 * then reaches the configuration error page instead of the forced storefront.
 */
export async function demoServerWithoutForcedHost(t: Test): Promise<FastifyInstance> {
  const app = await demoServer({ sites: { ...loadSitesConfig('config/sites.json').config, forceHost: undefined } });
  t.teardown(() => app.close());
  return app;
}

/** Host headers of demo storefronts. */
export const HOSTS = {
  ch: 'www.halden.ch',
  de: 'www.halden.de',
  uk: 'www.halden.co.uk',
  ie: 'www.halden.ie',
} as const;

/** Live-preview settings for tests that use the draft API: the editor's origin and a draft token. */
export function previewWithDrafts(draftToken: string): PreviewConfig {
  return {
    apiKey: 'k',
    environment: 'e',
    branch: 'main',
    ssr: true,
    editorOrigins: ['https://app.contentstack.com'],
    draftToken,
  };
}

/**
 * The content-service client against a test's upstream at `url`, closed with the test: long
 * lifetimes unless the test says otherwise, so only what the test changes is refetched.
 */
export function upstreamClient(t: Test, url: string, options: Partial<UpstreamContentOptions> = {}) {
  const content = createUpstreamContentService({
    contentServiceUrl: url,
    appConfigUrl: url,
    cacheTtlMs: 60_000,
    staleMs: 60_000,
    maxEntries: 1000,
    ...options,
  });
  t.teardown(() => content.close());
  return content;
}

/** A page as a visitor reaches it: same-site redirects (canonical slugs, the home page) followed up to three times. */
export async function fetchPage(
  app: FastifyInstance,
  host: string,
  url: string,
): Promise<{ status: number; body: string; url: string }> {
  let current = url;
  for (let hops = 0; hops < 4; hops++) {
    const res = await app.inject({ url: current, headers: { host } });
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && location.startsWith('/')) {
      current = location;
      continue;
    }
    return { status: res.statusCode, body: res.body, url: current };
  }
  return { status: 0, body: '', url: `${current} (redirect loop)` };
}
