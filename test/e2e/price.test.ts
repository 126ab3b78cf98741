import type { Browser } from 'playwright-core';
import t from 'tap';
import { CATALOG_WRITE, createTokens } from '../../server/data/auth.ts';
import { createGraphQLClient } from '../../server/data/graphql-client.ts';
import { until } from '../until.ts';
import { launchBrowser, openPage, waitForIsland } from './browser.ts';
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
