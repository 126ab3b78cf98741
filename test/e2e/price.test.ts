import { type Browser, chromium } from 'playwright-core';
import t from 'tap';
import { CATALOG_WRITE, createTokens } from '../../server/data/auth.ts';
import { createGraphQLClient } from '../../server/data/graphql-client.ts';
import { until } from '../until.ts';
import { CHROMIUM, CHROMIUM_ARGS, launchBrowser, openPage, waitForIsland } from './browser.ts';
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
  await page.locator('section.features .availability').waitFor({ timeout: 10_000 });
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
  await page.locator('section.features .availability').waitFor({ timeout: 10_000 });

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
