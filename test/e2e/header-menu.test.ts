import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import t from 'tap';
import { DESKTOP, layoutShifts, NARROW, openPage, recordLayoutShifts, waitForIsland } from './browser.ts';
import { startSuite } from './server.ts';

/**
 * The header's menu is a `<details>` disclosure rendered on the server (decision 0198): it opens
 * and closes by pointer and keyboard with JavaScript off as with it on, and hydrating the header
 * changes nothing a visitor sees.
 */
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const { server, browser } = await startSuite(t);

const SUMMARY = 'header.site-header summary.menu-toggle';
const LIST = 'header.site-header ul.nav-links';
const HYDRATED = 'vitrine-island[data-name="header"][data-hydrated]';

/** The toggle as Chromium's accessibility tree gives it to a screen reader: role, name, expanded. */
async function toggleForScreenReaders(page: Page): Promise<{ role: string; name: string; expanded: boolean }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const node = nodes.find((n) => n.name?.value === 'Menu');
    return {
      role: String(node?.role?.value),
      name: String(node?.name?.value),
      expanded: node?.properties?.find((p) => p.name === 'expanded')?.value.value === true,
    };
  } finally {
    await cdp.detach();
  }
}

const listShown = (page: Page) => page.locator(LIST).isVisible();
const toggleFocused = (page: Page) =>
  page.evaluate((selector) => document.activeElement?.matches(selector) ?? false, SUMMARY);

/** With JavaScript on, the island hydrates on the visitor's first interaction, which the test has made: wait for it. */
async function hydrated(page: Page, javaScriptEnabled: boolean): Promise<void> {
  if (javaScriptEnabled) await page.waitForSelector(HYDRATED, { state: 'attached', timeout: 15_000 });
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';

  t.test(`the narrow menu opens and closes by pointer ${mode}`, async (t) => {
    const { page, close } = await openPage(browser, { viewport: NARROW, javaScriptEnabled });
    t.teardown(close);
    await page.goto(server.url('uk', PRODUCT));
    t.ok(await page.locator(SUMMARY).isVisible(), 'the menu toggle is shown from the first paint');
    t.notOk(await listShown(page), 'the links start folded away');
    t.same(
      await toggleForScreenReaders(page),
      { role: 'DisclosureTriangle', name: 'Menu', expanded: false },
      'screen readers get a collapsed toggle named Menu',
    );

    await page.locator(SUMMARY).click();
    await hydrated(page, javaScriptEnabled);
    t.ok(await listShown(page), 'a click opens the menu (and hydrating does not fold it away)');
    t.equal((await toggleForScreenReaders(page)).expanded, true, 'the toggle says it is expanded');
    await page.locator(LIST).getByRole('link').first().waitFor({ state: 'visible' });

    await page.locator(SUMMARY).click();
    t.notOk(await listShown(page), 'a second click closes it');
    t.equal((await toggleForScreenReaders(page)).expanded, false, 'the toggle says it is collapsed');
  });

  t.test(`the narrow menu works by keyboard ${mode}`, async (t) => {
    const { page, close } = await openPage(browser, { viewport: NARROW, javaScriptEnabled });
    t.teardown(close);
    await page.goto(server.url('uk', PRODUCT));
    // Reach the toggle the way a keyboard user does: Tab from the top (skip link, language, brand, toggle).
    for (let presses = 0; presses < 15 && !(await toggleFocused(page)); presses++) await page.keyboard.press('Tab');
    t.ok(await toggleFocused(page), 'Tab reaches the menu toggle');
    await hydrated(page, javaScriptEnabled);

    await page.keyboard.press('Enter');
    t.ok(await listShown(page), 'Enter opens the menu');
    await page.keyboard.press('Tab');
    t.ok(
      await page.evaluate((selector) => document.activeElement?.closest(selector) != null, LIST),
      'the next Tab goes into the open menu',
    );
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    t.notOk(await listShown(page), 'Space on the toggle closes it');
    t.ok(await toggleFocused(page), 'focus stays on the toggle');

    if (!javaScriptEnabled) return;
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    t.notOk(await listShown(page), 'once hydrated, Escape closes it');
    t.ok(await toggleFocused(page), 'and returns focus to the toggle');
  });
}

t.test('once hydrated, a pointer outside the header closes the menu', async (t) => {
  const { page, close } = await openPage(browser, { viewport: NARROW });
  t.teardown(close);
  await page.goto(server.url('uk', PRODUCT));
  await page.locator(SUMMARY).click();
  await hydrated(page, true);
  t.ok(await listShown(page), 'open');
  await page.locator('.copyright').click();
  await page.locator(LIST).waitFor({ state: 'hidden' });
  t.notOk(await listShown(page), 'a click on the page, below the open menu, closes it');
});

t.test('the desktop header shows its links and no toggle, with and without JavaScript', async (t) => {
  for (const javaScriptEnabled of [false, true]) {
    const { page, close } = await openPage(browser, { viewport: DESKTOP, javaScriptEnabled });
    await page.goto(server.url('uk', PRODUCT));
    t.notOk(await page.locator(SUMMARY).isVisible(), `no menu toggle (JavaScript ${javaScriptEnabled})`);
    t.ok(await listShown(page), `the links are a row in the header (JavaScript ${javaScriptEnabled})`);
    await close();
  }
});

/** Where the header, its parts and the heading below it are. */
function headerBoxes(page: Page): Promise<unknown> {
  return page.evaluate(() =>
    ['header.site-header', '.brand', 'summary.menu-toggle', 'ul.nav-links', 'main h1'].map((s) => {
      const r = document.querySelector(s)?.getBoundingClientRect();
      return r ? [s, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)] : [s];
    }),
  );
}

for (const [label, viewport] of [
  ['390 px', { width: 390, height: 844 }],
  ['desktop', DESKTOP],
] as const) {
  t.test(`hydrating the header moves nothing at ${label}`, async (t) => {
    const { page: plain, close: closePlain } = await openPage(browser, { viewport, javaScriptEnabled: false });
    t.teardown(closePlain);
    await plain.goto(server.url('uk', PRODUCT));
    const served = await headerBoxes(plain);

    const { page, close } = await openPage(browser, { viewport });
    t.teardown(close);
    await recordLayoutShifts(page);
    await page.goto(server.url('uk', PRODUCT));
    // Hydrate it the way a visitor would: focus reaches the header (a keyboard user's first Tab).
    await page.locator('header.site-header a.brand').focus();
    await waitForIsland(page, 'header');
    // A shift is reported in the frame it happens: let two frames pass after hydration.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    t.same(await headerBoxes(page), served, 'the header and the heading below it sit where the server put them');
    t.same(await layoutShifts(page, 'header.site-header'), [], 'no layout shift in the header');
  });
}

t.test('the narrow header, open and closed, has no serious or critical axe violations', async (t) => {
  for (const javaScriptEnabled of [false, true]) {
    // The site's CSP (script-src 'self') would refuse the inline axe script; bypass it for the audit only.
    const context = await browser.newContext({ viewport: NARROW, javaScriptEnabled: true, bypassCSP: true });
    const page = await context.newPage();
    // Without JavaScript: the page's own scripts are refused, axe is still added by the test.
    if (!javaScriptEnabled) await page.route('**/*.js', (route) => route.abort());
    await page.goto(server.url('uk', PRODUCT));
    await page.addScriptTag({ content: AXE_SOURCE });
    for (const open of [false, true]) {
      if (open) await page.locator(SUMMARY).click();
      if (open) await hydrated(page, javaScriptEnabled);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (c: string) => Promise<{ violations: unknown[] }> } }).axe;
        const result = await axe.run('header.site-header');
        return (result.violations as { id: string; impact: string }[])
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id);
      });
      t.same(
        violations,
        [],
        `axe: header ${open ? 'open' : 'closed'}, page scripts ${javaScriptEnabled ? 'on' : 'off'}`,
      );
    }
    await context.close();
  }
});
