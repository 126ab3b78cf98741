import t from 'tap';
import { launchBrowser, openPage, pathOf, recordRequests } from './browser.ts';
import { startServer } from './server.ts';

/**
 * The Speculation-Rules header in Chromium: a visitor who saves data or reports a 2g-class
 * connection gets none (so Chromium fetches no rules and prefetches nothing), everyone else gets
 * it; and Chromium honours the page's Accept-CH by sending ECT on the next navigation.
 */
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const RULES = '/builds/speculation-rules.json';
const server = await startServer();
t.teardown(() => server.stop());
const browser = await launchBrowser();
t.teardown(() => browser.close());

t.test('Chromium sends the ECT hint the page asked for on its next navigation, and loads the rules', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const requests = recordRequests(page);
  const rules = page.waitForRequest((r) => pathOf(r) === RULES);
  const first = await page.goto(server.url('uk', '/'));
  t.equal(first?.headers()['accept-ch'], 'ECT, Save-Data', 'the page asks for the hints');
  t.equal(first?.headers()['speculation-rules'], `"${RULES}"`, 'and names its rules');
  await rules;
  const second = await page.goto(server.url('uk', PRODUCT));
  const ect = (await second?.request().allHeaders())?.ect;
  t.match(ect, /^(slow-2g|2g|3g|4g)$/, `the next navigation carries ECT (${ect})`);
  t.ok(requests.filter((r) => pathOf(r) === RULES).length > 0, 'Chromium fetched the speculation rules');
});

for (const [name, headers] of [
  ['Save-Data: on', { 'save-data': 'on' }],
  ['ECT: 2g', { ect: '2g' }],
  ['ECT: slow-2g', { ect: 'slow-2g' }],
] as const) {
  t.test(`${name}: no speculation rules, none fetched`, async (t) => {
    const { page, close } = await openPage(browser, { extraHTTPHeaders: headers });
    t.teardown(close);
    const requests = recordRequests(page);
    const response = await page.goto(server.url('uk', PRODUCT), { waitUntil: 'load' });
    t.equal(response?.status(), 200);
    t.equal(response?.headers()['speculation-rules'], undefined, 'the answer has no Speculation-Rules header');
    t.match(response?.headers().vary, /ECT, Save-Data/, 'and says it depends on the hints');
    t.same(
      requests.filter((r) => pathOf(r) === RULES).map((r) => r.url()),
      [],
      'Chromium loaded no speculation rules',
    );
  });
}
