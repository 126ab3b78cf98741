import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import t from 'tap';
import { CHROMIUM, CHROMIUM_ARGS } from './browser.ts';
import { startServer } from './server.ts';

/**
 * Lighthouse (mobile, its default throttling) on the home page and a product page.
 * Accessibility is a rule set, so it is asserted; performance depends on the machine, so it is
 * printed for the closing note and the benchmark, never asserted.
 */
t.setTimeout(300_000);

const server = await startServer();
t.teardown(() => server.stop());
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS });
t.teardown(() => chrome.kill());

for (const [name, path] of [
  ['home', '/'],
  ['product page', '/cs/kitchen/aquasense-60-dishwasher-4711'],
] as const) {
  t.test(`Lighthouse on the ${name}`, async (t) => {
    const result = await lighthouse(server.url('uk', path), {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    const categories = result?.lhr.categories;
    const performance = Math.round((categories?.performance?.score ?? 0) * 100);
    const accessibility = Math.round((categories?.accessibility?.score ?? 0) * 100);
    t.comment(`lighthouse ${name}: performance ${performance}, accessibility ${accessibility}`);
    const failing = Object.values(result?.lhr.audits ?? {})
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          result?.lhr.categories.accessibility?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
      )
      .map((a) => a.id);
    t.equal(accessibility, 100, `accessibility 100 (failing audits: ${failing.join(', ') || 'none'})`);
  });
}
