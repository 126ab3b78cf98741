import t from 'tap';
import sitesConfig from '../../config/sites.json' with { type: 'json' };
import { DESKTOP } from './browser.ts';
import { startSuite } from './server.ts';

/**
 * Nothing a browser asks for on a demo page answers 404 (or fails): stylesheets, scripts, images,
 * icons and the manifest. Every page of three storefronts (multilingual, single-language, header-less)
 * as their sitemaps list them, and the home page of every other storefront.
 */
const { server, browser } = await startSuite(t);

const aliasOf = (host: string) => {
  const site = sitesConfig.sites.find((s) => s.host === host);
  return site?.aliases?.[0]?.replace(/\.localhost$/, '') ?? '';
};

async function sitemapPaths(storefront: string): Promise<string[]> {
  const res = await server.get(storefront, '/sitemap.xml');
  return [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
}

async function pagesToVisit(): Promise<[string, string][]> {
  const visits: [string, string][] = [];
  for (const storefront of ['ch', 'uk', 'ie']) {
    for (const path of await sitemapPaths(storefront)) visits.push([storefront, path]);
  }
  for (const site of sitesConfig.sites) {
    const storefront = aliasOf(site.host);
    if (!['ch', 'uk', 'ie'].includes(storefront)) visits.push([storefront, '/']);
  }
  return visits;
}

/** Pages loading at once: each visit mostly waits for its network to go quiet (500 ms of nothing). */
const AT_ONCE = 4;

t.test('no request of any visited demo page answers 404 or fails', async (t) => {
  const visits = await pagesToVisit();
  t.ok(visits.length >= 60, `${visits.length} pages to visit`);
  const context = await browser.newContext({ viewport: DESKTOP });
  t.teardown(() => context.close());
  const bad: string[] = [];
  let requests = 0;
  const queue = [...visits];
  // Each tab takes the next page when its last one has gone quiet; a response is blamed on the
  // page its tab was visiting.
  const tab = async () => {
    const page = await context.newPage();
    let current = '';
    page.on('response', (response) => {
      if (response.status() >= 400) bad.push(`${current}: ${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => {
      // A navigation away aborts what the previous page still had in flight; that is not a failure.
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') bad.push(`${current}: failed ${request.url()}`);
    });
    page.on('request', () => requests++);
    for (let visit = queue.shift(); visit; visit = queue.shift()) {
      const [storefront, path] = visit;
      current = `${storefront}${path}`;
      const response = await page.goto(server.url(storefront, path), { waitUntil: 'networkidle' });
      t.equal(response?.status(), 200, current);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, tab));
  t.same(bad, [], `${requests} requests over ${visits.length} pages, none answered 404 or failed`);
});
