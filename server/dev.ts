import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ViteDevServer } from 'vite';
import type { LayoutName } from '../common/content.ts';
import { type AssetManifest, ISLAND_SOURCES } from './render/assets.ts';
import { otherLayoutStylesheets } from './render/layout-prefetch.ts';

/**
 * `npm run dev`: Vite in middleware mode serves the island sources, the runtime and the layout
 * stylesheets with hot reload; server code restarts through `tsx watch`.
 * Nothing here is imported in production.
 */
export interface DevAssets {
  assets: AssetManifest;
  middleware(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** Starts Vite once the app listens, so its hot-reload socket shares the app's HTTP server. */
  start(server: Server): Promise<void>;
  close(): Promise<void>;
}

/** `hosts`: every storefront host and alias; Vite refuses other Host headers (DNS-rebinding guard). */
export function createDevAssets(hosts: string[]): DevAssets {
  let vite: ViteDevServer | undefined;
  const source = (name: string) => {
    const file = ISLAND_SOURCES[name];
    if (!file) throw new Error(`Unknown island ${name}`);
    return `/${file}`;
  };
  const assets: AssetManifest = {
    build: { id: 'dev', timestamp: Date.now() },
    islandUrl: source,
    documentAssets(layout: LayoutName, islands: readonly string[]) {
      return {
        // `?direct`: the stylesheet itself, not Vite's JavaScript wrapper for CSS imports.
        stylesheet: `/client/layouts/${layout}.css?direct`,
        runtime: islands.length ? source('runtime') : null,
        modulePreloads: islands.length ? ['/@vite/client'] : [],
        stylesheetPrefetches: otherLayoutStylesheets((l) => `/client/layouts/${l}.css?direct`, layout),
      };
    },
    scriptFiles: (islands) => (islands.length ? ['runtime', ...islands].map(source) : []),
  };
  return {
    assets,
    middleware(req, res, next) {
      if (vite) vite.middlewares(req, res, next);
      else next();
    },
    async start(server) {
      const { createServer } = await import('vite');
      vite = await createServer({
        appType: 'custom',
        server: { middlewareMode: true, allowedHosts: hosts, hmr: { server } },
      });
    },
    close: async () => vite?.close(),
  };
}
