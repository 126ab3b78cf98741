import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * `trailingSlash` over HTTP: the demo with the Swiss storefront switched on and the British one
 * left at the default, so both spellings are checked side by side.
 */

const dir = mkdtempSync(join(tmpdir(), 'vitrine-slash-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const config = JSON.parse(readFileSync('config/sites.json', 'utf8'));
for (const site of config.sites) if (site.host === HOSTS.ch) site.trailingSlash = true;
const sites = join(dir, 'sites.json');
writeFileSync(sites, JSON.stringify(config));

const app = await demoServer({ sites });
t.teardown(() => app.close());
const get = (host: string, url: string) => app.inject({ method: 'GET', url, headers: { host } });

const DISHWASHER_CH = '/de/cs/kueche/aquasense-60-geschirrspueler-4711';

t.test('each storefront redirects the other spelling to its own, query kept', async (t) => {
  const rows: [string, string, number, string | undefined][] = [
    [HOSTS.ch, `${DISHWASHER_CH}?x=1`, 301, `${DISHWASHER_CH}/?x=1`],
    [HOSTS.ch, `${DISHWASHER_CH}/`, 200, undefined],
    [HOSTS.ch, '/de', 301, '/de/'],
    [HOSTS.ch, '/de/cs/x-125/', 301, '/de/'],
    [HOSTS.uk, '/cs/kitchen/aquasense-60-dishwasher-4711/', 301, '/cs/kitchen/aquasense-60-dishwasher-4711'],
  ];
  for (const [host, url, status, location] of rows) {
    const res = await get(host, url);
    t.equal(res.statusCode, status, `${host}${url}`);
    if (location) t.equal(res.headers.location, location, `${host}${url} → ${location}`);
  }
});

t.test('canonical and alternate links name the slash form on the storefront that has it', async (t) => {
  const html = (await get(HOSTS.ch, `${DISHWASHER_CH}/`)).body;
  t.match(html, `<link rel="canonical" href="https://www.halden.ch${DISHWASHER_CH}/"/>`);
  const alternates = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g)];
  const swiss = alternates.filter(([, , href]) => href?.startsWith('https://www.halden.ch/'));
  const others = alternates.filter(([, , href]) => href?.startsWith('https://www.halden.co.uk/'));
  t.ok(swiss.length >= 3 && swiss.every(([, , href]) => href?.endsWith('/')), 'Swiss alternates end in /');
  t.ok(others.length > 0 && others.every(([, , href]) => !href?.endsWith('/')), 'British ones do not');
});

t.test('the sitemap lists the storefront’s own spelling', async (t) => {
  const ch = (await get(HOSTS.ch, '/sitemap.xml')).body;
  const locs = [...ch.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
  t.ok(locs.length > 0, `${locs.length} Swiss URLs`);
  t.same(
    locs.filter((loc) => !loc.endsWith('/')),
    [],
    'every Swiss URL ends in /',
  );
  const uk = (await get(HOSTS.uk, '/sitemap.xml')).body;
  const ukLocs = [...uk.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
  t.same(
    ukLocs.filter((loc) => loc.endsWith('/') && new URL(loc).pathname !== '/'),
    [],
    'British URLs keep no slash',
  );
});

t.test('the home page and the links the site builds follow the spelling too', async (t) => {
  const home = (await get(HOSTS.ch, '/de/')).body;
  t.match(home, '<link rel="canonical" href="https://www.halden.ch/de/"/>', 'home canonical');
  const page = (await get(HOSTS.ch, `${DISHWASHER_CH}/`)).body;
  // The links the site builds: language switcher, header navigation, brand, breadcrumbs.
  const chrome = page.slice(page.indexOf('<body'), page.indexOf('<h1'));
  const internal = [...chrome.matchAll(/<a [^>]*href="(\/[^"#?]*)"/g)].map((m) => m[1] ?? '');
  t.ok(internal.length > 5, `${internal.length} internal links`);
  t.same(
    internal.filter((href) => !href.endsWith('/')),
    [],
    'every internal link is in the slash form, so following one costs no redirect',
  );
});
