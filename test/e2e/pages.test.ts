import t from 'tap';
import { NARROW, openPage, recordRequests, scriptRequests, waitForIsland } from './browser.ts';
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

t.test('the header island hydrates and its menu toggle opens and closes on click (narrow viewport)', async (t) => {
  const { page, close } = await openPage(browser, { viewport: NARROW });
  t.teardown(close);
  await page.goto(server.url('uk', DISHWASHER));
  const toggle = page.locator('header.site-header button.menu-toggle');
  const list = page.locator('header.site-header ul.nav-links');

  await waitForIsland(page, 'header');
  await toggle.waitFor({ state: 'visible', timeout: 10_000 });
  t.ok(await toggle.isVisible(), 'the toggle is shown once hydrated');
  t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'starts collapsed');
  t.equal(await list.getAttribute('data-open'), 'false', 'the list starts closed');
  const controls = await toggle.getAttribute('aria-controls');
  t.ok(controls, 'the toggle names the list it controls');
  t.equal(await list.getAttribute('id'), controls, 'aria-controls points at ul.nav-links');

  await toggle.click();
  t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'a click expands');
  t.equal(await list.getAttribute('data-open'), 'true', 'a click opens the list');

  await toggle.click();
  t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a second click collapses');
  t.equal(await list.getAttribute('data-open'), 'false', 'a second click closes the list');
});

t.test(
  'the menu toggle works by keyboard: Enter opens and focuses the menu, Escape closes and returns focus',
  async (t) => {
    const { page, close } = await openPage(browser, { viewport: NARROW });
    t.teardown(close);
    await page.goto(server.url('uk', DISHWASHER));
    await waitForIsland(page, 'header');
    const toggle = page.locator('header.site-header button.menu-toggle');
    const list = page.locator('header.site-header ul.nav-links');
    await toggle.waitFor({ state: 'visible', timeout: 10_000 });

    const toggleFocused = () =>
      page.evaluate(() => document.activeElement?.matches('header.site-header button.menu-toggle') ?? false);
    // Reach the toggle the way a keyboard user does: Tab from the top of the page (skip link, brand, toggle).
    for (let presses = 0; presses < 10 && !(await toggleFocused()); presses++) await page.keyboard.press('Tab');
    t.ok(await toggleFocused(), 'Tab navigation reaches the menu toggle');

    await page.keyboard.press('Enter');
    t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'Enter expands');
    t.equal(await list.getAttribute('data-open'), 'true', 'Enter opens the list');
    await page.waitForFunction(() => document.activeElement?.closest('ul.nav-links') != null, undefined, {
      timeout: 5_000,
    });
    t.ok(
      await page.evaluate(() => document.activeElement?.closest('header.site-header ul.nav-links') != null),
      'focus moves into the menu',
    );

    await page.keyboard.press('Escape');
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'Escape collapses');
    t.equal(await list.getAttribute('data-open'), 'false', 'Escape closes the list');
    t.ok(await toggleFocused(), 'focus returns to the toggle');
  },
);

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
  t.equal(await page.locator('button.menu-toggle').count(), 0, 'no header island (dhfIsEnabled is false)');
  t.equal(await page.locator('section.parallax').count(), 0, 'no parallax banner');
  t.ok(requests.length > 0, 'requests were recorded');
  t.same(scriptRequests(requests), [], 'no request is a script or ends in .js');
});

t.test('a page with islands loads the runtime script', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const requests = recordRequests(page);
  await page.goto(server.url('uk', DISHWASHER));
  const runtime = await page.getAttribute('script[type="module"][src]', 'src');
  t.ok(runtime, 'the page has a module script');
  await waitForIsland(page, 'header');
  const runtimeUrl = new URL(runtime ?? '', page.url()).href;
  const fetched = requests.find((r) => r.url() === runtimeUrl);
  t.ok(fetched, `the browser requested the runtime ${runtimeUrl}`);
  t.equal(fetched?.resourceType(), 'script', 'as a script');
  t.equal((await fetched?.response())?.status(), 200, 'and it was served');
  t.ok(scriptRequests(requests).length >= 1, 'scripts were loaded');
});
