import t from 'tap';
import { loadSitesConfig } from '../server/config/sites.ts';
import { demoServer } from './helpers.ts';

/**
 * Every same-site link on every page of the demo leads straight to a page: 200, no redirect. A link
 * written without the storefront's language prefix (`/cs/…` on `www.halden.ch/fr`) still arrives,
 * through a redirect chosen by the visitor's cookie or browser language, which may be another
 * language's page; the visitor pays a round trip on every click. The pages are those each
 * storefront's sitemap lists, in every locale.
 */
const { config } = loadSitesConfig('config/sites.json');

t.test('every same-site link of every demo page answers 200 without a redirect', async (t) => {
  const app = await demoServer({ htmlCache: false });
  t.teardown(() => app.close());
  for (const site of config.sites) {
    const sitemap = await app.inject({ url: '/sitemap.xml', headers: { host: site.host } });
    const pages = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
    t.ok(pages.length >= 10, `${site.host}: the sitemap lists its pages`);
    const links = new Set<string>();
    for (const path of pages) {
      const res = await app.inject({ url: path, headers: { host: site.host } });
      t.equal(res.statusCode, 200, `${site.host}${path} answers 200`);
      for (const m of res.body.matchAll(/<a [^>]*href="(\/[^"#]*)/g)) links.add(m[1] ?? '');
    }
    const detours: string[] = [];
    for (const link of links) {
      const res = await app.inject({ url: link, headers: { host: site.host } });
      if (res.statusCode !== 200) detours.push(`${link}: ${res.statusCode} ${res.headers.location ?? ''}`);
    }
    t.same(detours, [], `${site.host}: ${links.size} same-site links, each straight to a page`);
  }
});
