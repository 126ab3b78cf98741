import { type Browser, chromium, type Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { CATALOG_WRITE, createTokens } from '../../server/data/auth.ts';
import { createGraphQLClient } from '../../server/data/graphql-client.ts';
import { until } from '../until.ts';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  launchBrowser,
  layoutShifts,
  nextFrames,
  openPage,
  pathOf,
  recordLayoutShifts,
  recordRequests,
  waitForIsland,
} from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

/** A browser sees a price change on the page after the backend changes it. */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const SECRET = 'e2e-price-secret-0123456789-abcdefghij';

let server: RunningServer;
let browser: Browser;

t.before(async () => {
  // The spawned server reads its environment from ours: a known secret, and no demo changes racing the test.
  process.env.GRAPHQL_TOKEN_SECRET = SECRET;
  process.env.GRAPHQL_DEMO_CHANGE_MS = '0';
  server = await startServer();
  browser = await launchBrowser();
});
t.teardown(async () => {
  await browser?.close();
  await server?.stop();
});

/** Sets the dishwasher's price (and availability) in the backend, as the catalogue's editors would. */
async function changePrice(t: Test, amount: number, availability = 'IN_STOCK'): Promise<void> {
  const data = createGraphQLClient({ url: `${server.origin}/graphql` });
  try {
    const token = createTokens(SECRET).sign({ sub: 'e2e', roles: [CATALOG_WRITE] });
    const result = await data.request(
      {
        query: `mutation ($amount: Float!) { updateProduct(id: "4711", locale: "en-GB", amount: $amount, availability: ${availability}) { version } }`,
        variables: { amount },
      },
      { token },
    );
    t.notOk(result.errors, 'the backend accepted the change');
  } finally {
    await data.close();
  }
}

/** The page shows `amount`, changed in the backend again each poll: the subscription may start late. */
function follows(t: Test, page: Page, amount: number, availability?: string): Promise<unknown> {
  const price = page.locator(LIVE_PRICE);
  return until(
    async () => {
      if ((await price.innerText()) === `£${amount}`) return true;
      await changePrice(t, amount, availability);
      return false;
    },
    { what: `the page to show £${amount}`, timeout: 15_000, every: 250 },
  );
}

const LIVE_PRICE = 'section.features p.price vitrine-island[data-name="price"] data';
/** React DOM (or preact/compat) and the price's own module: what the live price costs a phone. */
const PRICE_CODE = /\/assets\/(hydrate-island|price)-[^/]*\.js$/;

t.test('the live price changes on the page when the backend changes it', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|WebSocket|graphql/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  await page.goto(server.url('uk', DISHWASHER));
  const price = page.locator('section.features p.price vitrine-island[data-name="price"] data');
  t.equal(await price.innerText(), '£779', 'the server-rendered price');
  await waitForIsland(page, 'price');
  // Subscribed once the backend answered the hydration query (the availability line appears then).
  // The labels are all there from the server's render; the backend's answer marks the current one.
  await page.locator('section.features .availability [data-current]').waitFor({ state: 'attached', timeout: 10_000 });
  t.equal((await page.locator('section.features .availability').innerText()).trim(), 'In stock');

  const data = createGraphQLClient({ url: `${server.origin}/graphql` });
  t.teardown(() => data.close());
  const token = createTokens(SECRET).sign({ sub: 'e2e', roles: [CATALOG_WRITE] });
  const change = async (amount: number, availability: string) => {
    const result = await data.request(
      {
        query: `mutation ($amount: Float!) { updateProduct(id: "4711", locale: "en-GB", amount: $amount, availability: ${availability}) { version } }`,
        variables: { amount },
      },
      { token },
    );
    t.notOk(result.errors, 'the backend accepted the change');
  };
  // The subscription may start a moment after the availability shows: repeat until the page follows.
  await until(
    async () => {
      if ((await price.innerText()) === '£701') return true;
      await change(701, 'LOW_STOCK');
      return false;
    },
    { what: 'the page to show the new price', timeout: 15_000, every: 250 },
  );
  t.equal(await price.innerText(), '£701', 'the page shows the new price');
  t.equal(await price.getAttribute('value'), '701');
  t.equal((await page.locator('section.features .availability').innerText()).trim(), 'Only a few left');
  t.equal(await page.locator('[role="status"].price-live').innerText(), '', 'no connection message while live');
  t.same(problems, [], "no socket or CSP errors: connect-src 'self' allows the same-origin socket");
});

t.test('teaser prices are static: no live island outside the feature list', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  await page.goto(server.url('uk', DISHWASHER));
  t.equal(await page.locator('vitrine-island[data-name="price"]').count(), 1, 'one live price: the product’s own');
  t.equal(await page.locator('.teasers vitrine-island').count(), 0);
});

t.test('a product page enters the back/forward cache and shows a fresh price when restored', async (t) => {
  // Playwright turns the back/forward cache off by default; a visitor's Chromium has it on.
  const cachingBrowser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  t.teardown(() => cachingBrowser.close());
  const { page, close } = await openPage(cachingBrowser);
  t.teardown(close);
  await page.addInitScript(() => {
    const shows: boolean[] = [];
    Object.assign(window, { pageshows: shows });
    addEventListener('pageshow', (event) => shows.push(event.persisted));
  });

  const response = await page.goto(server.url('uk', DISHWASHER));
  t.notMatch(response?.headers()['cache-control'] ?? '', /no-store/, 'the page may be kept (no-store would bar it)');
  const price = page.locator('section.features p.price vitrine-island[data-name="price"] data');
  await waitForIsland(page, 'price');
  // The labels are all there from the server's render; the backend's answer marks the current one.
  await page.locator('section.features .availability [data-current]').waitFor({ state: 'attached', timeout: 10_000 });

  const data = createGraphQLClient({ url: `${server.origin}/graphql` });
  t.teardown(() => data.close());
  const token = createTokens(SECRET).sign({ sub: 'e2e', roles: [CATALOG_WRITE] });
  const change = (amount: number) =>
    data.request(
      {
        query: `mutation ($amount: Float!) { updateProduct(id: "4711", locale: "en-GB", amount: $amount) { version } }`,
        variables: { amount },
      },
      { token },
    );
  const follows = (amount: number, what: string) =>
    until(
      async () => {
        if ((await price.innerText()) === `£${amount}`) return true;
        await change(amount);
        return false;
      },
      { what, timeout: 15_000, every: 250 },
    );
  await follows(711, 'the page to follow a change before leaving');

  await page.goto(server.url('uk', '/'));
  // Changed while the page is away: no socket is open to push it.
  t.notOk((await change(622)).errors, 'the backend accepted the change');
  // A restored page fires no load event: wait for its pageshow, or for a fresh document's.
  await page.goBack({ waitUntil: 'commit' });
  await page.waitForFunction(() => {
    const shows = (window as unknown as { pageshows?: boolean[] }).pageshows ?? [];
    const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const fresh = entry?.type === 'back_forward' && document.readyState === 'complete' && shows.length > 0;
    return shows.at(-1) === true || fresh;
  });
  const restored = await page.evaluate(() => {
    const shows = (window as unknown as { pageshows: boolean[] }).pageshows;
    const entry = performance.getEntriesByType('navigation')[0] as PerformanceEntry & { notRestoredReasons?: unknown };
    return { persisted: shows.at(-1), reasons: JSON.stringify(entry.notRestoredReasons ?? null) };
  });
  t.equal(restored.persisted, true, `restored from the back/forward cache (not restored: ${restored.reasons})`);
  await until(async () => (await price.innerText()) === '£622', {
    what: 'the restored page to fetch the price changed meanwhile',
    timeout: 15_000,
    every: 100,
  });
  t.pass('the restored page shows the price changed while it was away');
  await follows(633, 'the restored page to follow changes again');
  t.equal(await price.innerText(), '£633', 'the restored page is live again');
});

t.test('the live price loads no island code until it is on screen, then follows the backend', async (t) => {
  // 390 × 600: the product's price is below the fold, as on most phones.
  const { page, close } = await openPage(browser, { viewport: { width: 390, height: 600 } });
  t.teardown(close);
  const requests = recordRequests(page);
  await page.goto(server.url('uk', DISHWASHER));
  await page.waitForResponse((response) => /\/assets\/runtime-[^/]*\.js$/.test(response.url()));
  // The runtime has started once its module is in; an idle island (the price before decision 0205)
  // would be on its way after the next idle callbacks.
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    await nextFrames(page);
  }
  t.same(
    requests.map(pathOf).filter((path) => PRICE_CODE.test(path)),
    [],
    'neither React DOM nor the price module is fetched while the price is off screen',
  );
  t.equal(await page.locator(LIVE_PRICE).innerText(), '£779', 'the server-rendered price is there all along');
  await page.locator(LIVE_PRICE).scrollIntoViewIfNeeded();
  await page.waitForSelector('vitrine-island[data-name="price"][data-hydrated]', { state: 'attached' });
  t.ok(
    requests.map(pathOf).some((path) => /\/assets\/hydrate-island-[^/]*\.js$/.test(path)),
    'on screen, the island loads its library and hydrates',
  );
  await follows(t, page, 742);
  t.pass('and the price follows the backend from then on');
});

t.test('the live price moves nothing at 390 × 844 when it hydrates and when the price changes', async (t) => {
  // The backend's price as the server renders it, in stock: what changes on hydration is the availability.
  await changePrice(t, 779);
  const { page, close } = await openPage(browser, { viewport: { width: 390, height: 844 } });
  t.teardown(close);
  await recordLayoutShifts(page);
  await page.goto(server.url('uk', DISHWASHER));
  const box = await page.locator(LIVE_PRICE).boundingBox();
  t.ok(box && box.y < 844, 'the price is on screen at 390 × 844, where a shift would count');
  const availability = page.locator('section.features .availability');
  await until(async () => (await availability.innerText()).trim() === 'In stock', {
    what: 'the backend’s answer (availability) on the page',
    timeout: 15_000,
    every: 100,
  });
  await follows(t, page, 701, 'LOW_STOCK');
  t.equal((await availability.innerText()).trim(), 'Only a few left');
  await nextFrames(page);
  t.same(
    await layoutShifts(page),
    [],
    'no layout shift: the availability’s space is reserved and the digits are of one width',
  );
});
