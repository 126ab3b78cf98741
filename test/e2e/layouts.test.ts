import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { LAYOUT_NAMES, LAYOUTS } from '../../client/layouts/layouts.ts';
import { openPage, waitForIsland } from './browser.ts';
import { ROOT, startSuite } from './server.ts';

/**
 * Every layout a template can choose, in a real browser: one page per layout on the Swiss
 * storefront (multilingual, so the language switcher has something to show), each asserted
 * against the layout table: header kind, breadcrumbs, switchers, footer, landmarks, stylesheet.
 */

const LOCALE = 'de-CH';
const FIRST_ID = 9100;

const contentDir = mkdtempSync(join(tmpdir(), 'vitrine-layouts-'));
t.teardown(() => rmSync(contentDir, { recursive: true, force: true }));
cpSync('content', contentDir, { recursive: true });
const home = JSON.parse(readFileSync(join(contentDir, LOCALE, 'page_template/home.json'), 'utf8'));

const pages = LAYOUT_NAMES.map((layout, i) => {
  const id = String(FIRST_ID + i);
  const uid = `layout-${layout}`;
  const template = { ...home, uid, title: uid, layout };
  writeFileSync(join(contentDir, LOCALE, `page_template/${uid}.json`), JSON.stringify(template));
  const page = {
    uid: `page-${id}`,
    title: `Layout ${layout}`,
    slug: uid,
    template: [{ _content_type_uid: 'page_template', uid }],
    url_taxonomy: [{ url_taxonomy_segments: [] }],
    seo: { enable_search_indexing: false },
  };
  writeFileSync(join(contentDir, LOCALE, `pages/${id}.json`), JSON.stringify(page));
  return { layout, path: `/de/cs/${uid}-${id}` };
});

const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/client/.vite/manifest.json'), 'utf8'));
const { server, browser } = await startSuite(t, { CONTENT_DIR: contentDir });

for (const { layout, path } of pages) {
  const spec = LAYOUTS[layout];
  t.test(`the ${layout} layout shows its own chrome`, async (t) => {
    const { page, close } = await openPage(browser);
    t.teardown(close);
    const stylesheets: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'stylesheet')
        stylesheets.push({ url: response.url(), status: response.status() });
    });
    const response = await page.goto(server.url('ch', path));
    t.equal(response?.status(), 200, `${path} answers 200`);
    t.equal(await page.locator('body').getAttribute('data-layout'), layout, 'the body names the layout');

    t.equal(await page.locator('main#main').count(), 1, 'one main landmark');
    t.ok(await page.locator('h1.page-title').isVisible(), 'the page title is shown');
    t.ok(await page.locator('main section, main .hero').first().isVisible(), 'the body components are shown');

    const banner = page.locator('body > header.site-header, vitrine-island header.site-header');
    if (spec.header === 'none') {
      t.equal(await banner.count(), 0, 'no header');
    } else {
      t.ok(await banner.first().isVisible(), 'a header is shown');
      t.ok(await banner.locator('a.brand').first().isVisible(), 'the header links the brand home');
      if (spec.header === 'island') {
        await waitForIsland(page, 'header');
        t.ok(await banner.locator('nav .nav-links').count(), 'the header carries the navigation');
      } else {
        t.equal(await page.locator('vitrine-island[data-name="header"]').count(), 0, 'no header island');
        t.equal(await banner.locator('nav').count(), 0, 'the logo header has no navigation');
      }
    }

    t.equal(await page.locator('nav.breadcrumbs').isVisible(), spec.breadcrumbs, 'breadcrumbs as the layout says');
    t.equal(await page.locator('nav.language-switcher').count(), spec.switchers ? 1 : 0, 'language switcher');
    t.equal(await page.locator('details.country-selector').count(), spec.switchers ? 1 : 0, 'country selector');
    const footer = page.locator('footer.site-footer');
    t.equal(await footer.count(), spec.footer ? 1 : 0, 'footer as the layout says');
    if (spec.footer) t.ok(await footer.locator('.copyright').isVisible(), 'the footer is shown');

    const expected = `/assets/${manifest[`client/layouts/${layout}.css`].file}`;
    const linked = await page
      .locator('link[rel="stylesheet"]')
      .evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    t.ok(
      linked.some((href) => href.endsWith(expected)),
      `the page links its layout stylesheet ${expected} (${linked.join(', ')})`,
    );
    const loaded = stylesheets.find((s) => new URL(s.url).pathname.endsWith(expected));
    t.equal(loaded?.status, 200, 'the layout stylesheet loads');
    const rules = await page.evaluate(
      (file) =>
        Array.from(document.styleSheets)
          .filter((s) => s.href?.endsWith(file))
          .reduce((n, s) => n + s.cssRules.length, 0),
      expected,
    );
    t.ok(rules > 0, `the layout stylesheet applies (${rules} rules)`);
    // The other layouts' distinct files are prefetched for routes that use them; this build may fold all into one.
    const others = new Set(
      LAYOUT_NAMES.map((l) => `/assets/${manifest[`client/layouts/${l}.css`].file}`).filter((f) => f !== expected),
    );
    const prefetched = await page
      .locator('link[rel="prefetch"][as="style"]')
      .evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    t.same(prefetched.sort(), [...others].sort(), `the other layouts' stylesheets are prefetched (${others.size})`);
  });
}

t.test('the live route renders its entry in the minimal layout', async (t) => {
  const { page, close } = await openPage(browser);
  t.teardown(close);
  const response = await page.goto(server.url('ch', `/de/cs/live?entry_uid=${FIRST_ID}`));
  t.equal(response?.status(), 200);
  t.equal(await page.locator('body').getAttribute('data-layout'), 'minimal', 'whatever layout the template names');
  t.equal(await page.locator('h1.page-title').innerText(), `Layout ${LAYOUT_NAMES[0]}`, 'the entry asked for');
  t.equal(await page.locator('footer.site-footer').count(), LAYOUTS.minimal.footer ? 1 : 0, 'minimal chrome');
  const unknown = await page.goto(server.url('ch', '/de/cs/live?entry_uid=page-does-not-exist'));
  t.equal(unknown?.status(), 404, 'an unknown entry is a 404, not the home page');
});
