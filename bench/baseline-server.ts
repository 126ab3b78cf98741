/**
 * The bench's reference points, started by bench/run.ts pinned like the real server:
 * - `/floor`: the product page's React tree, built by the server's own code (buildPage, pageElement),
 *   rendered with `renderToString` in a bare Fastify route: what React itself costs.
 * - `/ceiling`: the same HTML as a static string: what Fastify and the socket cost.
 * The page's data is loaded once at start-up, so the floor is rendering alone.
 */

import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { renderToString } from 'react-dom/server';
import { createMessageCatalog } from '../client/i18n/messages.ts';
import { loadSitesConfig } from '../server/config/sites.ts';
import { createEmbeddedStore } from '../server/content/store.ts';
import { ImageSources } from '../server/images/sources.ts';
import { imageSrcSet } from '../server/images/srcset.ts';
import { type AssetManifest, loadAssetManifest } from '../server/render/assets.ts';
import { buildPage } from '../server/render/build-page.ts';
import { pageElement } from '../server/render/page-element.ts';
import { decideRoute } from '../server/routing/route.ts';
import { createHostResolver } from '../server/sites/resolve.ts';
import { BENCH_HOST, PRODUCT_PATH } from './config.ts';

const silent = { warn() {}, error() {}, info() {}, debug() {} };

/**
 * The product page's assembled model and a function that builds its element the server's way
 * (`assets`: the build's manifest unless given).
 */
export async function productPage({
  path = PRODUCT_PATH,
  host = BENCH_HOST,
  assets,
}: {
  path?: string;
  host?: string;
  assets?: AssetManifest;
} = {}) {
  const { config: sites } = loadSitesConfig('config/sites.json');
  const content = createEmbeddedStore({ dir: 'content' });
  const messages = createMessageCatalog({ dir: 'locales', fallbackLocale: sites.fallbackLocale, log: silent });
  // The image route's srcsets, as the server writes them: the floor renders the page visitors get.
  const images = await ImageSources.load('public/images');
  const deps = {
    sites,
    content,
    messages,
    assets: assets ?? loadAssetManifest('dist/client'),
    dev: false,
    imageSrcSet: imageSrcSet(images),
  };
  const found = createHostResolver(sites).resolve(host);
  if ('error' in found) throw new Error(`${host} is not a demo storefront`);
  const decision = decideRoute({
    rawPath: path,
    query: '',
    site: found.site,
    fallbackLocale: sites.fallbackLocale,
    cookieLanguage: undefined,
    acceptLanguage: undefined,
  });
  if (decision.kind !== 'render') throw new Error(`${path} does not render (${decision.kind})`);
  const outcome = await buildPage(deps, { site: found.site, decision, rawPath: path, query: '', log: silent });
  if (outcome.kind !== 'page') throw new Error(`${path} does not render a page (${outcome.kind})`);
  const t = await messages.translator(outcome.model.locale);
  return { close: () => content.close(), element: () => pageElement(deps, outcome.model, t, silent) };
}

async function main(): Promise<void> {
  const page = await productPage();
  const html = `<!DOCTYPE html>${renderToString(page.element())}`;
  const app = Fastify({ logger: false });
  app.get('/floor', (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(`<!DOCTYPE html>${renderToString(page.element())}`);
  });
  app.get('/ceiling', (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(html);
  });
  app.get('/healthcheck', async () => ({ status: 'ok' }));
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const stop = () => {
    void app.close().finally(() => {
      page.close();
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
