import t from 'tap';
import { openPage, recordRequests, scriptRequests, waitForIsland } from './browser.ts';
import { startSuite } from './server.ts';

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
/** The Irish service page: dhfIsEnabled is false there (no header island) and it has no interactive component. */
const IE_SERVICE = '/cs/help/support/customer-service-8000';

const { server, browser } = await startSuite(t);

t.test('a page renders its title, heading and language', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const response = await page.goto(server.url('uk', DISHWASHER));
  t.equal(response?.status(), 200, 'the page answers 200');
  t.equal(await page.title(), 'AquaSense 60 dishwasher | Halden', 'document title: page title | site name');
  t.equal(await page.locator('h1').count(), 1, 'exactly one h1');
  t.equal((await page.locator('h1').innerText()).trim(), 'AquaSense 60 dishwasher', 'the h1 is the page title');
  t.equal(await page.getAttribute('html', 'lang'), 'en-GB', '<html lang> is the storefront locale');
});

t.test('a page with no island requests no JavaScript file at all', async (t) => {
  // The server's HTML first: no executable script, no module preload, no island.
  const { status, body: html } = await server.get('ie', IE_SERVICE);
  t.equal(status, 200, 'the Irish service page answers 200');
  t.match(html, /<html lang="en-IE"/, 'it is the Irish storefront');
  const scriptTags = html.match(/<script\b[^>]*>/gi) ?? [];
  t.same(
    scriptTags.filter((tag) => !/type=["']?application\/ld\+json/i.test(tag)),
    [],
    'the HTML has no <script> tag other than JSON-LD data',
  );
  t.notMatch(html, /<vitrine-island\b/, 'the HTML has no island');
  t.notMatch(html, /rel=["']?modulepreload/i, 'the HTML preloads no module');

  const { page, close } = await openPage(browser);
  t.teardown(close);
  const requests = recordRequests(page);
  const response = await page.goto(server.url('ie', IE_SERVICE), { waitUntil: 'load' });
  t.equal(response?.status(), 200, 'the Irish service page answers 200');
  await page.waitForLoadState('networkidle');
  t.equal(await page.locator('vitrine-island').count(), 0, 'no island in the page');
  t.equal(await page.locator('.menu-toggle').count(), 0, 'no header island (dhfIsEnabled is false)');
  t.equal(await page.locator('section.parallax').count(), 0, 'no parallax banner');
  t.ok(requests.length > 0, 'requests were recorded');
  t.same(scriptRequests(requests), [], 'no request is a script or ends in .js');
});

t.test('a page with islands loads the runtime script', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const requests = recordRequests(page);
  await page.goto(server.url('uk', DISHWASHER));
  const runtime = await page.getAttribute('script[data-src]', 'data-src');
  t.ok(runtime, 'the page has a boot script that names the runtime');
  await waitForIsland(page, 'header');
  const runtimeUrl = new URL(runtime ?? '', page.url()).href;
  const fetched = requests.find((r) => r.url() === runtimeUrl);
  t.ok(fetched, `the browser requested the runtime ${runtimeUrl}`);
  t.equal(fetched?.resourceType(), 'script', 'as a script');
  t.equal((await fetched?.response())?.status(), 200, 'and it was served');
  t.ok(scriptRequests(requests).length >= 1, 'scripts were loaded');
});
