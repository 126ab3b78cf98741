import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openPage } from './browser.ts';
import { startSuite } from './server.ts';

/**
 * A page with a broken component still shows the rest, in a real browser: the demo content with
 * the dishwasher's feature list broken so that it throws while rendering.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';

const contentDir = mkdtempSync(join(tmpdir(), 'vitrine-broken-'));
t.teardown(() => rmSync(contentDir, { recursive: true, force: true }));
cpSync('content', contentDir, { recursive: true });
const file = join(contentDir, 'en-GB/page_template/dishwasher.json');
const template = JSON.parse(readFileSync(file, 'utf8'));
const features = template.body_components.find((c: { uid: string }) => c.uid === 'features-dishwasher');
features.productFeatures[0].titleText = { text: 'an object where text belongs' };
writeFileSync(file, JSON.stringify(template));

const { server, browser } = await startSuite(t, { CONTENT_DIR: contentDir });

t.test('the page shows everything but the broken component', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const response = await page.goto(server.url('uk', DISHWASHER));
  t.equal(response?.status(), 200, 'the page answers 200');
  t.equal(await page.locator('section.features').count(), 0, 'the broken feature list is not there');
  t.ok(await page.locator('.hero').first().isVisible(), 'the hero is shown');
  t.ok(await page.locator('section.teasers').isVisible(), 'the teaser grid is shown');
  t.ok(await page.locator('nav.breadcrumbs').isVisible(), 'the breadcrumbs are shown');
  t.ok(await page.locator('section.legal').isVisible(), 'the legal notes are shown');
  const indexes = await page.locator('.footnote-index').allTextContents();
  t.same(
    indexes.map(Number),
    indexes.map((_, i) => i + 1),
    `footnotes numbered without a gap (${indexes.join(', ')})`,
  );
  const targets = await page
    .locator('sup.cite a')
    .evaluateAll((links) =>
      links.map((a) => Boolean(document.getElementById((a.getAttribute('href') ?? '').slice(1)))),
    );
  t.ok(targets.length > 0 && targets.every(Boolean), 'every citation left lands on a legal item');
  t.match(server.output(), /features-dishwasher/, 'the server logged the left-out component');
});
