import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Window } from 'happy-dom';
import t from 'tap';
import { demoServer, demoServerWithoutForcedHost, HOSTS } from './helpers.ts';

/** robots.txt, sitemaps, icons and the manifest of each storefront, over the demo content. */
let app: FastifyInstance;
t.before(async () => {
  app = await demoServer();
});
t.teardown(() => app.close());

const get = (host: string, url: string) => app.inject({ url, headers: { host } });
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

function parseXml(text: string) {
  const window = new Window();
  const doc = new window.DOMParser().parseFromString(text, 'application/xml');
  return doc as unknown as Document;
}

/** Indexable page ids of a locale in a content folder. */
async function indexablePages(dir: string, locale: string): Promise<string[]> {
  const names = await readdir(join(dir, locale, 'pages'));
  const ids: string[] = [];
  for (const name of names) {
    const page = JSON.parse(await readFile(join(dir, locale, 'pages', name), 'utf8'));
    if (page.seo?.enable_search_indexing !== false) ids.push(name.replace('.json', ''));
  }
  return ids;
}

t.test('the Swiss sitemap has the protocol shape: namespaces, loc, hreflang alternates', async (t) => {
  const res = await get(HOSTS.ch, '/sitemap.xml');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/xml/);
  t.match(res.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset /);
  const doc = parseXml(res.body);
  const root = doc.documentElement;
  t.equal(root.localName, 'urlset');
  t.equal(root.namespaceURI, SITEMAP_NS);
  t.equal(root.getAttribute('xmlns:xhtml'), XHTML_NS);

  const urls = [...root.children];
  const expected = (await Promise.all(['de-CH', 'fr-CH', 'it-CH'].map((l) => indexablePages('content', l)))).flat();
  t.equal(urls.length, expected.length, 'every indexable page in each of the three locales');
  const locs = new Set<string>();
  for (const url of urls) {
    t.equal(url.localName, 'url');
    const children = [...url.children];
    const loc = children.filter((c) => c.localName === 'loc');
    t.equal(loc.length, 1, 'exactly one loc');
    const href = loc[0]?.textContent ?? '';
    t.match(href, /^https:\/\/www\.halden\.ch\/(de|fr|it)(\/|$)/, 'absolute, on the storefront, with its language');
    locs.add(href);
    const links = children.filter((c) => c.localName === 'link');
    t.ok(links.length >= 2, 'alternates besides itself');
    t.ok(
      links.some((l) => l.getAttribute('hreflang') === 'x-default'),
      'an x-default alternate',
    );
    t.ok(links.every((l) => l.getAttribute('rel') === 'alternate' && /^https:\/\//.test(l.getAttribute('href') ?? '')));
    t.ok(
      links.some((l) => l.getAttribute('href') === href),
      'the page is among its own alternates',
    );
  }
  t.equal(locs.size, urls.length, 'no URL twice');
  t.ok(locs.has('https://www.halden.ch/fr'), 'home pages by their language root');
  t.ok(
    [...root.getElementsByTagName('xhtml:link')].some((l) =>
      l.getAttribute('href')?.startsWith('https://www.halden.de/'),
    ),
    'alternates reach across storefronts',
  );
});

t.test('a single-language storefront lists its pages at the unprefixed paths', async (t) => {
  const res = await get(HOSTS.uk, '/sitemap.xml');
  t.equal(res.statusCode, 200);
  t.match(res.body, '<loc>https://www.halden.co.uk/</loc>');
  t.match(res.body, '<loc>https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711</loc>');
  t.notMatch(res.body, 'https://www.halden.co.uk/en/');
  t.equal((await get(HOSTS.uk, '/sitemap-1.xml')).statusCode, 404, 'no parts without an index');
});

t.test('sitemaps follow content: a new page appears, a no-index page stays out', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-sitemap-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp('content', dir, { recursive: true });
  const token = 'sitemap-test-token-0123456789';
  const own = await demoServer({ contentDir: dir, revalidateToken: token });
  t.teardown(() => own.close());
  const before = await own.inject({ url: '/sitemap.xml', headers: { host: HOSTS.uk } });
  t.notMatch(before.body, 'new-page-9999');

  const page = JSON.parse(await readFile(join(dir, 'en-GB/pages/4711.json'), 'utf8'));
  await writeFile(join(dir, 'en-GB/pages/9999.json'), JSON.stringify({ ...page, uuid: '9999', slug: 'new-page' }));
  await writeFile(
    join(dir, 'en-GB/pages/9998.json'),
    JSON.stringify({ ...page, uuid: '9998', slug: 'hidden', seo: { enable_search_indexing: false } }),
  );
  const stale = await own.inject({ url: '/sitemap.xml', headers: { host: HOSTS.uk } });
  t.notMatch(stale.body, 'new-page-9999', 'kept until content changes');
  const revalidate = await own.inject({
    method: 'POST',
    url: '/cs/api/_revalidate',
    headers: { host: HOSTS.uk, authorization: `Bearer ${token}` },
  });
  t.equal(revalidate.statusCode, 200);
  const after = await own.inject({ url: '/sitemap.xml', headers: { host: HOSTS.uk } });
  t.match(after.body, '<loc>https://www.halden.co.uk/cs/kitchen/new-page-9999</loc>');
  t.notMatch(after.body, 'hidden-9998');
});

t.test('robots.txt and the manifest are per storefront', async (t) => {
  const robots = await get(HOSTS.de, '/robots.txt');
  t.equal(robots.statusCode, 200);
  t.match(robots.headers['content-type'], /^text\/plain/);
  t.match(robots.body, 'Sitemap: https://www.halden.de/sitemap.xml');

  const manifest = await get(HOSTS.ch, '/manifest.webmanifest');
  t.equal(manifest.statusCode, 200);
  t.match(manifest.headers['content-type'], /^application\/manifest\+json/);
  const body = manifest.json();
  t.equal(body.name, 'Halden');
  t.equal(body.start_url, '/de');
  t.equal(body.lang, 'de-CH');
  t.match(body.theme_color, /^#[0-9a-f]{6}$/);
  for (const icon of body.icons) {
    const res = await get(HOSTS.ch, icon.src);
    t.equal(res.statusCode, 200, `${icon.src} is served`);
    t.equal(res.headers['content-type'], icon.type);
  }
});

t.test('icons answer for every host, and every page links them', async (t) => {
  for (const [path, type] of [
    ['/favicon.ico', 'image/x-icon'],
    ['/icons/icon.svg', 'image/svg+xml'],
    ['/apple-touch-icon.png', 'image/png'],
    ['/icons/apple-touch-icon.png', 'image/png'],
  ]) {
    for (const host of [HOSTS.uk, 'localhost:3000', 'unknown.example']) {
      const res = await get(host, path as string);
      t.equal(res.statusCode, 200, `${path} for ${host}`);
      t.equal(res.headers['content-type'], type);
    }
  }
  t.equal((await get(HOSTS.uk, '/icons/nope.png')).statusCode, 404);
  t.equal((await get(HOSTS.uk, '/icons/..%2Fimages%2Foven.svg')).statusCode, 404);
  for (const url of ['/', '/cs/kitchen/aquasense-60-dishwasher-4711', '/no-such-page']) {
    const res = await get(HOSTS.uk, url);
    t.match(res.body, '<link rel="icon" href="/favicon.ico" sizes="32x32"/>', url);
    t.match(res.body, '<link rel="icon" href="/icons/icon.svg" type="image/svg+xml"/>');
    t.match(res.body, '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"/>');
    t.match(res.body, '<link rel="manifest" href="/manifest.webmanifest"/>');
  }
});

/** JSON-LD blocks of a page, parsed. */
function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1] ?? ''));
}

t.test('home pages carry Organization and WebSite data, product pages their Product with its offer', async (t) => {
  const home = await get(HOSTS.uk, '/');
  const homeTypes = jsonLdOf(home.body).map((v) => v['@type']);
  t.ok(homeTypes.includes('Organization') && homeTypes.includes('WebSite'), `home: ${homeTypes}`);
  t.notOk(homeTypes.includes('Product'));

  const product = await get(HOSTS.uk, '/cs/kitchen/aquasense-60-dishwasher-4711');
  type ProductLd = {
    name?: string;
    image?: string[];
    offers?: { priceCurrency?: string; price?: string; url?: string };
  };
  const ld = jsonLdOf(product.body).find((v) => v['@type'] === 'Product') as ProductLd | undefined;
  t.equal(ld?.name, 'AquaSense 60 dishwasher');
  t.same(ld?.image, ['https://www.halden.co.uk/images/dishwasher.jpg']);
  t.equal(ld?.offers?.priceCurrency, 'GBP');
  t.match(ld?.offers?.price, /^\d+\.\d{2}$/);
  t.equal(ld?.offers?.url, 'https://www.halden.co.uk/cs/kitchen/aquasense-60-dishwasher-4711');

  const category = await get(HOSTS.uk, '/cs/kitchen-appliances-200');
  t.notOk(jsonLdOf(category.body).some((v) => v['@type'] === 'Product' || v['@type'] === 'Organization'));
});

t.test('link previews get the site name and the hero image', async (t) => {
  const product = await get(HOSTS.uk, '/cs/kitchen/aquasense-60-dishwasher-4711');
  t.match(product.body, '<meta property="og:site_name" content="Halden"/>');
  t.match(product.body, '<meta property="og:image" content="https://www.halden.co.uk/images/dishwasher.jpg"/>');
  t.match(product.body, '<meta name="twitter:image" content="https://www.halden.co.uk/images/dishwasher.jpg"/>');
});

t.test('error pages are titled with their status', async (t) => {
  const missing = await get(HOSTS.uk, '/cs/no-such-page-999999');
  t.equal(missing.statusCode, 404);
  t.match(missing.body, /<title>404 [^<]+ \| Halden<\/title>/);
  const unforced = await demoServerWithoutForcedHost(t);
  const broken = await unforced.inject({ url: '/', headers: { host: 'localhost:3000' } });
  t.equal(broken.statusCode, 500);
  t.match(broken.body, /<title>500 [^<]+ \| Halden<\/title>/);
});

t.test('a storefront description and handle reach the head', async (t) => {
  const { loadSitesConfig } = await import('../server/config/sites.ts');
  const config = loadSitesConfig('config/sites.json').config;
  const sites = config.sites.map((s) =>
    s.host === HOSTS.uk ? { ...s, description: 'Quiet & efficient <appliances>', twitter: '@halden_uk' } : s,
  );
  const own = await demoServer({ sites: { ...config, sites } });
  t.teardown(() => own.close());
  const res = await own.inject({ url: '/cs/kitchen/aquasense-60-dishwasher-4711', headers: { host: HOSTS.uk } });
  t.match(res.body, '<meta name="twitter:site" content="@halden_uk"/>');
  // Every demo page has its own meta description, which wins over the storefront's (head.test.ts
  // covers the fallback).
  t.notMatch(res.body, 'Quiet &amp; efficient');
  t.notMatch(res.body, '<appliances>', 'never unescaped');
});
