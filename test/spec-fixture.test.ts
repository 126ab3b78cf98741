import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { demoServer, fetchPage, upstreamClient } from './helpers.ts';

/**
 * Content written from the content model's description alone, not from our demo (test/fixtures/spec-site): pages
 * without a `uuid` field, some without title, seo or template, a rich_text that carries a pricing
 * footnote, a component type the site does not know. Served from the embedded store and through the
 * content-service client, every page answers 200.
 */

const FIXTURE = 'test/fixtures/spec-site';
const SITES = join(FIXTURE, 'sites.json');
const CONTENT = join(FIXTURE, 'content');
const HOST_OF: Record<string, string> = {
  'de-CH': 'shop.nordlicht.ch',
  'fr-CH': 'shop.nordlicht.ch',
  'de-DE': 'shop.nordlicht.de',
};
const PREFIX_OF: Record<string, string> = { 'de-CH': '/de', 'fr-CH': '/fr', 'de-DE': '' };

/** Every page of the fixture as `[locale, uuid]`, read from the folder so a new file is covered too. */
const pages = Object.keys(HOST_OF).flatMap((locale) =>
  readdirSync(join(CONTENT, locale, 'pages')).map((file) => [locale, file.replace(/\.json$/, '')] as const),
);

function pageUrl(locale: string, uuid: string): string {
  return uuid === '125' ? PREFIX_OF[locale] || '/' : `${PREFIX_OF[locale]}/cs/any-slug-${uuid}`;
}

async function checkEveryPage(t: Test, app: FastifyInstance, warnings: object[]) {
  for (const [locale, uuid] of pages) {
    const host = HOST_OF[locale] as string;
    const answer = await fetchPage(app, host, pageUrl(locale, uuid));
    t.equal(answer.status, 200, `${locale} page ${uuid} (${answer.url})`);
  }
  const product = await fetchPage(app, 'shop.nordlicht.ch', '/de/cs/x-58');
  t.equal(product.url, '/de/cs/kuehlen/kuehlbox-58', 'the canonical path is built from taxonomy and slug');
  t.match(product.body, '<h1', 'the page renders');
  t.match(product.body, 'Die Kühlbox', 'page_title is the heading');
  t.match(product.body, /<section class="rich-text">[\s\S]*?<sup class="cite"><a href="#fn-uvp"[^>]*>1<\/a>/);
  t.match(product.body, /href="#fn-patent-1"[^>]*>2</, 'content footnotes number after the pricing one');
  t.match(product.body, /id="garantie"/, "the legal block's own footnote keeps its anchor");
  t.notMatch(product.body, 'fn-unseen', 'a component of an unknown type renders nothing, its notes neither');
  t.notMatch(product.body, '/de/de/', 'no link carries the language prefix twice');
  t.match(product.body, 'href="/de/cs/kuehlen-200"', 'a taxonomy link without the prefix gets it once');

  const untitled = await fetchPage(app, 'shop.nordlicht.ch', '/de/cs/ganz-leer-301');
  t.match(untitled.body, /<h1[^>]*>Ganz leer<\/h1>/, 'no title: the title fallback from the path');
  const category = await fetchPage(app, 'shop.nordlicht.de', '/cs/x-200');
  t.match(category.body, /<title>Kuehlen – Nordlicht<\/title>/, 'no title and no seo: fallbacks');
  t.equal((await fetchPage(app, 'shop.nordlicht.de', '/cs/x-999')).status, 404, 'a missing page is still a 404');
  for (const warning of warnings) t.match(warning, { where: String, path: /^\$/ }, 'warnings name source and path');
}

t.test('served from the embedded store, every page of the spec-shaped content answers 200', async (t) => {
  const warnings: object[] = [];
  const app = await demoServer({ sites: SITES, contentDir: CONTENT, htmlCache: false });
  t.teardown(() => app.close());
  await checkEveryPage(t, app, warnings);
});

t.test('served through the content-service client, every page answers 200 too', async (t) => {
  // The content service: this app's own /cs/api face over the same folder, on a real port.
  const origin = await demoServer({ sites: SITES, contentDir: CONTENT, trustProxy: '127.0.0.1' });
  t.teardown(() => origin.close());
  const address = await origin.listen({ port: 0, host: '127.0.0.1' });
  const warnings: object[] = [];
  const content = upstreamClient(t, address, { logger: { warn: (details) => warnings.push(details) } });
  const app = await demoServer({ sites: SITES, contentDir: CONTENT, content, htmlCache: false });
  t.teardown(() => app.close());
  await checkEveryPage(t, app, warnings);
});
