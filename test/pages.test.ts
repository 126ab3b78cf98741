import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { demoServer, demoServerWithoutForcedHost, HOSTS } from './helpers.ts';

/** The public site over HTTP with the demo content: what a visitor and a crawler get. */
let app: FastifyInstance;
t.before(async () => {
  app = await demoServer();
});
t.teardown(() => app.close());

const get = (host: string, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { host, ...headers } });
const DISHWASHER_UK = '/cs/kitchen/aquasense-60-dishwasher-4711';

t.test('a single-language home page renders with its locale, title and absolute SEO links', async (t) => {
  const res = await get(HOSTS.uk, '/');
  t.equal(res.statusCode, 200);
  t.match(res.body, /^<!DOCTYPE html><html lang="en-GB">/);
  t.match(res.body, '<title>Halden – quiet, efficient home appliances | Halden</title>');
  t.match(res.body, '<link rel="canonical" href="https://www.halden.co.uk/"/>');
  t.match(res.body, '<meta property="og:locale" content="en_GB"/>');
  t.match(res.body, '<meta name="twitter:card" content="summary_large_image"/>');
  const hreflangs = [...res.body.matchAll(/rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g)];
  t.equal(hreflangs.length, 30, '29 locales plus x-default');
  t.ok(hreflangs.some(([, lang, href]) => lang === 'fr-CH' && href === 'https://www.halden.ch/fr'));
  t.ok(hreflangs.some(([, lang, href]) => lang === 'x-default' && href === 'https://www.halden.co.uk/'));
  t.equal(res.headers['set-cookie'], undefined, 'no language cookie on single-language domains');
});

t.test('a product page cites every footnote and the legal notes hold each one', async (t) => {
  const res = await get(HOSTS.uk, DISHWASHER_UK);
  t.equal(res.statusCode, 200);
  const citations = [...res.body.matchAll(/<sup class="cite"><a href="#([^"]+)"[^>]*>(\d+)<\/a><\/sup>/g)];
  t.ok(citations.length >= 6, 'pricing and content footnotes are cited');
  const legal = res.body.slice(res.body.indexOf('<section id="legal-notes"'));
  t.match(
    legal,
    '<section id="legal-notes" class="legal" aria-labelledby="legal-notes-title" data-theme="dark" data-background="backdrop"',
  );
  t.match(legal, '>Legal Notes</h2>');
  for (const [, anchor, index] of citations) {
    t.match(
      legal,
      new RegExp(`<li id="${anchor}"[^>]*><span class="footnote-index" aria-hidden="true">${index}</span>`),
      `#${anchor} is item ${index}`,
    );
  }
  const indexes = [...legal.matchAll(/class="footnote-index" aria-hidden="true">(\d+)</g)].map((m) => Number(m[1]));
  t.same(
    indexes,
    indexes.map((_, i) => i + 1),
    'numbered 1..n in page order',
  );
  t.match(
    res.body,
    /<nav class="breadcrumbs" aria-label="Breadcrumb" data-theme="light" data-background="backdrop"><ol><li><a href="\/">Home<\/a><\/li><li><a href="\/cs\/kitchen-appliances-200">Kitchen<\/a><\/li><li><span aria-current="page">AquaSense 60 dishwasher<\/span>/,
  );
  t.match(res.body, '"@type":"BreadcrumbList"');
  t.match(res.body, /<h1 class="page-title">AquaSense 60 dishwasher<\/h1>/, 'heading and last breadcrumb agree');
  t.match(res.body, /<p class="price">.*?£779/, 'price in the storefront currency');
});

t.test('a page with its own legal section gets the collected footnotes prepended there', async (t) => {
  const res = await get(HOSTS.uk, '/cs/service/warranty-7000');
  t.equal(res.statusCode, 200);
  t.notMatch(res.body, 'id="legal-notes"', 'no second legal section is appended');
  const section = res.body.slice(res.body.indexOf('<section id="guarantee-terms"'));
  const ids = [...section.matchAll(/<li id="([^"]+)"/g)].map((m) => m[1]);
  t.same(ids.slice(-2), ['guarantee-1', 'guarantee-2'], "the block's own notes come last");
  t.ok(ids.indexOf('fn-rrp') === 0, 'the collected pricing footnote comes first');
});

t.test('the service page leaves excluded taxonomy segments out of its breadcrumbs', async (t) => {
  const res = await get(HOSTS.uk, '/cs/help/support/customer-service-8000');
  t.equal(res.statusCode, 200);
  const crumbs = res.body.match(/<nav class="breadcrumbs".*?<\/nav>/)?.[0] ?? '';
  t.notMatch(crumbs, '>Help<');
  t.match(crumbs, '>Support<');
});

/** Every redirect rule, as one row each (name, host, url, headers, status, Location). */
const REDIRECTS: [string, string, string, Record<string, string>, number, string][] = [
  ['non-canonical page path keeps the query', HOSTS.uk, '/cs/wrong/path-4711?ref=x', {}, 301, `${DISHWASHER_UK}?ref=x`],
  ['page id 125 goes home (single-language)', HOSTS.uk, '/cs/anything-125', {}, 301, '/'],
  ['page id 125 goes to the language root (multilingual)', HOSTS.ch, '/fr/cs/accueil-125', {}, 301, '/fr'],
  ['trailing slash removed', HOSTS.uk, `${DISHWASHER_UK}/?a=1`, {}, 301, `${DISHWASHER_UK}?a=1`],
  ['multilingual root detects from the cookie', HOSTS.ch, '/', { cookie: 'lang=it' }, 302, '/it'],
  [
    'multilingual root detects from Accept-Language',
    HOSTS.ch,
    '/',
    { 'accept-language': 'fr-CH,fr;q=0.9' },
    302,
    '/fr',
  ],
  ['multilingual root falls back to the default', HOSTS.ch, '/', { 'accept-language': 'ja' }, 302, '/de'],
  [
    'missing language is prepended',
    HOSTS.ch,
    '/cs/kueche/aquasense-60-geschirrspueler-4711?x=1',
    {},
    302,
    '/de/cs/kueche/aquasense-60-geschirrspueler-4711?x=1',
  ],
  ['a route rule redirects', HOSTS.ch, '/de/cs/aktion', {}, 301, '/de/cs/kueche/aquasense-60-geschirrspueler-4711'],
];

/** The router's 404 messages of the error catalogue. */
const NOT_FOUND: [string, string, string][] = [
  [HOSTS.uk, '/cs/kitchen', 'Page UUID is missing'],
  [HOSTS.uk, '/cs/nope-999', 'Page 999 not found'],
  [HOSTS.de, '/de/cs/kueche-200', 'Page Not Found: : invalid language'],
  [HOSTS.ch, '/xx-yy/cs/a-1', 'Page Not Found'],
  [HOSTS.uk, '/some/where', 'Page not found: /some/where'],
];

t.test('redirects', async (t) => {
  for (const [name, host, url, headers, status, location] of REDIRECTS) {
    const res = await get(host, url, headers);
    t.equal(res.statusCode, status, `${name}: status`);
    t.equal(res.headers.location, location, `${name}: location`);
  }
  const detected = await get(HOSTS.ch, '/');
  t.match(detected.headers.vary, /Cookie/);
  t.match(detected.headers.vary, /Accept-Language/);
  t.equal(detected.headers['cache-control'], 'private, no-store');
  const canonical = await get(HOSTS.uk, '/cs/wrong/path-4711');
  t.equal(canonical.headers.vary, undefined, 'a redirect that does not depend on the visitor varies on nothing');
});

t.test('not-found messages of the error catalogue', async (t) => {
  for (const [host, url, message] of NOT_FOUND) {
    const res = await get(host, url);
    t.equal(res.statusCode, 404, `${host}${url}`);
    t.match(res.body, `<p class="error-description">${message}</p>`, message);
    t.match(res.body, '<meta name="robots" content="noindex"/>');
    t.equal(res.headers['cache-control'], 'no-store');
  }
});

t.test('hosts: unknown is 404, loopback uses the forced host, healthcheck answers any host', async (t) => {
  t.equal((await get('evil.example', '/')).statusCode, 404);
  const forced = await get('localhost:3000', '/de');
  t.equal(forced.statusCode, 200);
  t.match(forced.body, '<html lang="de-CH">');
  t.equal((await get('127.0.0.1', '/healthcheck')).json().status, 'ok');
  t.equal((await get('evil.example', '/healthcheck')).statusCode, 200);

  const unforced = await demoServerWithoutForcedHost(t);
  const res = await unforced.inject({ url: '/', headers: { host: 'localhost<script>' } });
  t.equal(res.statusCode, 500);
  t.match(res.body, 'Configuration for localhost&lt;script&gt; is unknown: forceHost is required');
  t.notMatch(res.body, '<script>');
});

t.test('islands decide whether a page loads any JavaScript', async (t) => {
  const irishCategory = await get(HOSTS.ie, '/cs/kitchen-appliances-200');
  t.equal(irishCategory.statusCode, 200);
  t.notMatch(
    irishCategory.body,
    /<script(?! type="application\/(ld\+)?json")/,
    'header-less page without islands has no script',
  );
  t.notMatch(irishCategory.body, 'modulepreload');
  t.notMatch(irishCategory.body, '<header class="site-header"', 'no header element at all when dhfIsEnabled is false');
  const product = await get(HOSTS.uk, DISHWASHER_UK);
  t.match(product.body, '<script data-src="/assets/runtime-test.js">', 'the boot script names the runtime');
  t.notMatch(
    product.body,
    /<script[^>]* src=/,
    'no script is fetched with the page: the boot script imports the runtime later',
  );
  t.notMatch(product.body, 'modulepreload', 'what the islands need is fetched after the page, not with it');
  t.match(product.body, '<vitrine-island data-name="header"');
  t.match(
    product.body,
    '<vitrine-island data-name="parallax" data-url="/assets/parallax-test.js" data-strategy="visible"',
  );
});

t.test('preview tags fields with data-cslp; visitors never see them', async (t) => {
  const visitor = await get(HOSTS.uk, DISHWASHER_UK);
  t.notMatch(visitor.body, 'data-cslp');
  t.match(visitor.headers['cache-control'], /public/);
  const preview = await get(HOSTS.uk, `${DISHWASHER_UK}?live_preview=abc123&content_type_uid=page&entry_uid=4711`);
  t.equal(preview.statusCode, 200);
  t.match(preview.body, 'data-cslp="page_template.dishwasher.en-GB.body_components.0.headline"');
  t.match(preview.body, 'data-cslp="page.page-4711.en-GB.title"');
  t.equal(preview.headers['cache-control'], 'private, no-store');
  t.equal(preview.headers['x-robots-tag'], 'noindex');
});

t.test('multilingual pages set the language cookie only when it changes', async (t) => {
  const first = await get(HOSTS.ch, '/fr');
  t.match(String(first.headers['set-cookie']), /^lang=fr; Max-Age=31536000; Path=\/; SameSite=Lax/);
  t.equal(first.headers['cache-control'], 'private, no-store', 'a response that sets a cookie is not shared');
  const again = await get(HOSTS.ch, '/fr', { cookie: 'lang=fr' });
  t.equal(again.headers['set-cookie'], undefined);
  t.match(again.headers['cache-control'], /public/);
});

t.test('in a preview the editor frames from another site the language cookie is SameSite=None; Secure', async (t) => {
  const frame = { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' };
  const framed = await get(HOSTS.ch, '/fr?live_preview=frame-hash-0001', frame);
  t.match(String(framed.headers['set-cookie']), /^lang=fr;.*SameSite=None/);
  t.match(String(framed.headers['set-cookie']), /Secure/);
  // A page that refuses framing gives no other site a cookie it could set for the visitor (issue 32).
  const refused = await get(HOSTS.ch, '/fr', frame);
  t.match(String(refused.headers['content-security-policy']), /frame-ancestors 'self'/);
  t.match(String(refused.headers['set-cookie']), /SameSite=Lax/, 'a page that may not be framed stays lax');
  const switched = await get(HOSTS.ch, '/fr', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'document' });
  t.match(String(switched.headers['set-cookie']), /SameSite=Lax/, 'a top-level switch from another domain stays lax');
});

t.test('hostile input comes back escaped, never as markup', async (t) => {
  for (const url of [
    '/cs/%3Cscript%3Ealert(1)%3C/script%3E',
    '/%3Cimg%20src=x%20onerror=alert(1)%3E',
    '/cs/a"onmouseover="x-1',
  ]) {
    const res = await get(HOSTS.uk, url);
    t.ok(res.statusCode >= 300 && res.statusCode < 500, `${url} is not a server error`);
    t.notMatch(res.body, /<script>alert|<img src=x|"onmouseover=/, `${url} is not reflected as markup`);
  }
});

t.test('the content store answers over HTTP in the contract shape', async (t) => {
  const page = await get(HOSTS.uk, '/cs/api/contentstack/pages/4711?language=en-GB');
  t.equal(page.statusCode, 200);
  t.equal(page.json().entries[0].uuid, '4711');
  t.same((await get(HOSTS.uk, '/cs/api/contentstack/pages/99?language=en-GB')).json(), { entries: [] });
  const entry = await get(HOSTS.uk, '/cs/api/contentstack/page_template/home?language=en-GB');
  t.equal(entry.json().entry.uid, 'home');
  t.equal(
    (await get(HOSTS.uk, '/cs/api/other/pages/4711?language=en-GB')).statusCode,
    404,
    'another service name is 404',
  );
  t.equal((await get(HOSTS.uk, '/cs/api/contentstack/pages/4711?language=../x')).statusCode, 400);
  const appConfig = await get(HOSTS.ch, '/_applicationConfiguration?language=it-CH');
  t.equal(appConfig.json().globals.dhfIsEnabled, true);
  t.notMatch(
    String(appConfig.headers.vary ?? ''),
    /cookie/i,
    'the embedded store has one answer for everybody: a shared cache need not key on cookies',
  );
  t.equal(
    (await get(HOSTS.ch, '/_applicationConfiguration?language=en-GB')).statusCode,
    400,
    'only the storefront’s own locales',
  );
  const revalidate = await app.inject({ method: 'POST', url: '/cs/api/_revalidate', headers: { host: HOSTS.uk } });
  t.equal(revalidate.statusCode, 401, 'revalidate needs a token');
});

t.test('over a real socket: compressed HTML with security headers', async (t) => {
  const server = await demoServer();
  t.teardown(() => server.close());
  const address = await server.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${address}${DISHWASHER_UK}`, { headers: { host: HOSTS.uk, 'accept-encoding': 'br' } });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-encoding'), 'br');
  const csp = res.headers.get('content-security-policy') ?? '';
  t.match(csp, /frame-ancestors 'self'/);
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  const html = await res.text();
  t.match(html, '</html>');
  // The one inline script is allowed by its own hash, and the policy allows no other inline script.
  const inline = [...html.matchAll(/<script(?: data-src="[^"]*")?>([^<]*)<\/script>/g)].map((m) => m[1] ?? '');
  t.equal(inline.length, 1, 'one inline script: the boot script');
  const hash = createHash('sha256')
    .update(inline[0] ?? '')
    .digest('base64');
  t.equal(
    /script-src ([^;]*)/.exec(csp)?.[1],
    `'self' 'sha256-${hash}'`,
    "script-src is 'self' and the boot script's hash, no 'unsafe-inline'",
  );
});

t.test('{path}/_payload.json is the assembled page as JSON, under the same URL rules', async (t) => {
  const res = await get(HOSTS.uk, `${DISHWASHER_UK}/_payload.json`);
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /application\/json/);
  const body = res.json();
  t.equal(body.page.uuid, '4711');
  t.equal(body.footnotes[0].anchor, 'fn-rrp');
  t.equal(body.breadcrumbs.at(-1).label, 'AquaSense 60 dishwasher');
  t.equal(body.head.canonical, `https://www.halden.co.uk${DISHWASHER_UK}`);
  const moved = await get(HOSTS.uk, '/cs/wrong-4711/_payload.json?x=1');
  t.equal(moved.statusCode, 301);
  t.equal(moved.headers.location, `${DISHWASHER_UK}/_payload.json?x=1`);
  t.equal((await get(HOSTS.uk, '/cs/nope-999/_payload.json')).json().error, 'Page 999 not found');
  const home = await get(HOSTS.uk, '/?/_payload.json');
  t.match(home.headers['content-type'], /text\/html/, 'a payload path in the query is the normal page');
});

t.test('with GRAPHQL_URL the live price island connects to that backend', async (t) => {
  const elsewhere = await demoServer({ data: { url: 'https://data.example.com/graphql' } });
  t.teardown(() => elsewhere.close());
  const res = await elsewhere.inject({ url: DISHWASHER_UK, headers: { host: HOSTS.uk } });
  t.match(
    res.body,
    /<vitrine-island data-name="price"[^>]*&quot;endpoint&quot;:&quot;https:\/\/data.example.com\/graphql&quot;/,
  );
  t.match(res.headers['content-security-policy'], /connect-src 'self' https:\/\/data.example.com/);
});

t.test('the same redirects and 404 messages over a real socket', async (t) => {
  const server = await demoServer();
  t.teardown(() => server.close());
  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as { port: number };
  const fetchRaw = (host: string, path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
      const req = httpRequest({ port, path, headers: { host, ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
      });
      req.on('error', reject);
      req.end();
    });
  for (const [name, host, url, headers, status, location] of REDIRECTS) {
    const res = await fetchRaw(host, url, headers);
    t.equal(res.status, status, `${name}: status`);
    t.equal(res.location, location, `${name}: location`);
  }
  for (const [host, url, message] of NOT_FOUND) {
    const res = await fetchRaw(host, url, {});
    t.equal(res.status, 404, `${host}${url}`);
    t.match(res.body, `<p class="error-description">${message}</p>`);
  }
});
