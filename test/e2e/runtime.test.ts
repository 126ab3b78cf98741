import type { Page, Route } from 'playwright-core';
import t from 'tap';
import { until } from '../until.ts';
import { launchBrowser, openPage, waitForIsland } from './browser.ts';
import { startServer } from './server.ts';

/**
 * The client runtime in Chromium: build-update detection, the prefetch fallback's parallel
 * limit and Save-Data rule, and the reload guard.
 */
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const server = await startServer();
t.teardown(() => server.stop());
const browser = await launchBrowser();
t.teardown(() => browser.close());

/** Serves the page without its Speculation-Rules header, so only our fallback prefetches. */
async function withoutSpeculationRules(page: Page): Promise<void> {
  await page.route(
    (url) =>
      !url.pathname.startsWith('/assets/') &&
      !url.pathname.startsWith('/images/') &&
      !url.pathname.startsWith('/builds/'),
    async (route: Route) => {
      if (route.request().headers()['sec-purpose']?.includes('prefetch')) return; // hang: keep it in flight
      // Node does not resolve *.localhost as Chromium does: fetch from loopback with the same Host.
      const url = new URL(route.request().url());
      const host = url.host;
      url.hostname = '127.0.0.1';
      const response = await route.fetch({ url: url.href, headers: { ...route.request().headers(), host } });
      const headers = { ...response.headers() };
      delete headers['speculation-rules'];
      await route.fulfill({ response, headers });
    },
  );
  await page.addInitScript(() => {
    HTMLScriptElement.supports = () => false;
  });
}

t.test(
  'a changed builds/latest.json is detected when the tab returns after an hour, and a reload is offered',
  async (t) => {
    const { page, close } = await openPage(browser);
    t.teardown(close);
    await page.addInitScript(() => {
      const realNow = Date.now.bind(Date);
      (window as unknown as { __skew: number }).__skew = 0;
      Date.now = () => realNow() + (window as unknown as { __skew: number }).__skew;
    });
    let latestRequests = 0;
    await page.route('**/builds/latest.json*', (route) => {
      latestRequests++;
      return route.fulfill({ json: { id: 'a-newer-build', timestamp: Date.now() } });
    });
    await page.goto(server.url('uk', PRODUCT));
    await waitForIsland(page, 'header');
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    t.equal(latestRequests, 0, 'no check before the hour is up');
    await page.evaluate(() => {
      (window as unknown as { __skew: number }).__skew = 3_600_000;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForSelector('#vitrine-build-notice', { timeout: 10_000 });
    t.equal(latestRequests, 1);
    t.equal(await page.getAttribute('html', 'data-build-stale'), 'a-newer-build');
    t.match(await page.textContent('#vitrine-build-notice'), 'A new version of this site is available.');
  },
);

t.test('the prefetch fallback keeps at most 4 requests in flight', async (t) => {
  const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 4000 } });
  t.teardown(close);
  await withoutSpeculationRules(page);
  const prefetched = new Set<string>();
  page.on('request', (request) => {
    if (request.headers()['sec-purpose']?.includes('prefetch')) prefetched.add(new URL(request.url()).pathname);
  });
  await page.goto(server.url('uk', PRODUCT));
  await waitForIsland(page, 'header');
  for (const link of await page.$$('main a[href^="/"]')) await link.hover().catch(() => {});
  await until(() => prefetched.size >= 4, { what: 'four prefetches' });
  // Each hover queued its link at once: the page's own prefetch links are the whole story.
  t.equal(await page.locator('link[rel="prefetch"]').count(), 4, 'no fifth link while four hang');
  t.equal(prefetched.size, 4, `exactly four in flight while they hang (${[...prefetched].join(', ')})`);
});

t.test('no prefetch on Save-Data', async (t) => {
  const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 4000 } });
  t.teardown(close);
  await withoutSpeculationRules(page);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } });
  });
  const prefetched: string[] = [];
  page.on('request', (request) => {
    if (request.headers()['sec-purpose']?.includes('prefetch')) prefetched.push(request.url());
  });
  await page.goto(server.url('uk', PRODUCT));
  await waitForIsland(page, 'header');
  for (const link of await page.$$('main a[href^="/"]')) await link.hover().catch(() => {});
  // A prefetch starts as a link the hover adds at once: none was added, so none will start.
  t.equal(await page.locator('link[rel="prefetch"]').count(), 0);
  t.same(prefetched, []);
});

t.test('a chunk that fails to load reloads the page once, and the guard stops a loop', async (t) => {
  // Tall enough that the price is on screen on every load: it fetches its chunk only then (decision 0205).
  const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 1400 } });
  t.teardown(close);
  await page.route('**/assets/price-*.js', (route) => route.abort());
  let documents = 0;
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents++;
  });
  // Which load of the page this is, and the load whose island error has been handled.
  await page.addInitScript(() => {
    const load = Number(sessionStorage.getItem('test:load') ?? 0) + 1;
    sessionStorage.setItem('test:load', String(load));
    document.addEventListener('vitrine:island-error', () => {
      (window as { erredOnLoad?: number }).erredOnLoad = load;
    });
  });
  await page.goto(server.url('uk', PRODUCT));
  // The reloaded page fails the same chunk; the guard has had its say once that error is handled.
  await page.waitForFunction(() => (window as { erredOnLoad?: number }).erredOnLoad === 2, undefined, {
    timeout: 15_000,
  });
  // A reload the guard let through would be on the network now.
  await page.waitForLoadState('networkidle');
  t.equal(documents, 2, 'the first load and exactly one reload');
  t.equal(new URL(page.url()).pathname, PRODUCT, 'reloaded to the requested path');
});
