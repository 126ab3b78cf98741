import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { DESKTOP, pathOf, recordRequests, waitForIsland } from './browser.ts';
import { startSuite } from './server.ts';

const DE_DISHWASHER = '/de/cs/kueche/aquasense-60-geschirrspueler-4711';

const { server, browser } = await startSuite(t);

t.test('the language switcher leads to the same page in French and remembers the choice', async (t) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  t.teardown(() => context.close());
  const page = await context.newPage();

  const response = await page.goto(server.url('ch', DE_DISHWASHER));
  t.equal(response?.status(), 200, 'the German dishwasher page answers 200');
  t.equal(await page.getAttribute('html', 'lang'), 'de-CH', 'it is in Swiss German');

  const french = page.locator('nav.language-switcher a[hreflang="fr-CH"]');
  t.equal(await french.count(), 1, 'the switcher has one French link');
  await Promise.all([page.waitForURL((url) => url.pathname.startsWith('/fr/')), french.click()]);

  const { pathname } = new URL(page.url());
  t.match(pathname, /^\/fr\/cs\//, `the French page is under /fr/cs/ (${pathname})`);
  t.match(pathname, /-4711$/, 'and it is the same page (id 4711)');
  t.equal(await page.getAttribute('html', 'lang'), 'fr-CH', '<html lang="fr-CH">');
  const cookie = (await context.cookies(page.url())).find((c) => c.name === 'lang');
  t.equal(cookie?.value, 'fr', 'the lang cookie is fr');

  const home = await page.goto(server.url('ch', '/'));
  t.equal(new URL(page.url()).pathname, '/fr', 'the storefront root now redirects to /fr');
  t.equal(home?.status(), 200, 'the French home page answers 200');
  t.equal(await page.getAttribute('html', 'lang'), 'fr-CH', 'and it is in French');
});

/** Loads a page, lets every island hydrate (scrolling to the bottom for `visible` ones) and the network settle. */
async function visit(t: Test, page: Page, url: string, islands: string[]): Promise<void> {
  const response = await page.goto(url);
  t.equal(response?.status(), 200, `${url} answers 200`);
  for (const name of islands) {
    // Visible-strategy islands hydrate only once they scroll into view.
    await page.locator(`vitrine-island[data-name="${name}"] > *`).first().scrollIntoViewIfNeeded();
    await waitForIsland(page, name);
  }
  await page.waitForLoadState('networkidle');
}

t.test('the browser fetches no locale or translation file', async (t) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const requests = recordRequests(page);

  await visit(t, page, server.url('ch', DE_DISHWASHER), ['header', 'parallax']);
  await visit(t, page, server.url('uk', '/cs/kitchen/aquasense-60-dishwasher-4711'), ['header', 'parallax']);
  t.ok(requests.length > 0, `requests were recorded (${requests.length})`);
  t.ok(
    requests.some((r) => r.resourceType() === 'script'),
    'the islands loaded their scripts (so any lazy translation fetch would have happened)',
  );

  const translationFiles = requests
    .map((r) => pathOf(r))
    .filter((path) => path.includes('/locales/') || /(^|[/._-])[a-z]{2}([-_][a-z]{2})?\.json$/i.test(path));
  t.same(translationFiles, [], 'no request for /locales/… or a {locale}.json file');
});
