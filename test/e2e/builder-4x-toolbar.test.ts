import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame } from 'playwright-core';
import t from 'tap';
import { nextFrames } from './browser.ts';
import { focusField, HEADLINE, startBuilderSuite, TOOLBAR, UI } from './builder-page.ts';
import { received, roundTrip, waitFor } from './editor.ts';
import { fieldLocationApp } from './reference-441.ts';

/**
 * live-preview-utils 4.x's hover toolbar and field-location apps, in Chromium, the editor played by
 * the real @contentstack/advanced-post-message (builder-page.ts): the label with the field path,
 * the content type's name and the referring field; the questions asked once while hovering, again
 * on focus; the app list as toolbar buttons a keyboard reaches, choosing one sends 4.4.1's payload;
 * toggle-scroll stops the page under the open app. The toolbar is checked with axe.
 */

const { openBuilder } = await startBuilderSuite(t);

const HOVER_LABEL = `${UI} [data-testid="visual-builder__hover-toolbar"]`;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const APPS = {
  apps: [
    fieldLocationApp('a1', 'Translator'),
    fieldLocationApp('a2', 'Spell check'),
    fieldLocationApp('a3', 'SEO helper'),
  ],
};

/** The text of the builder's element at `selector` once it contains `text`. */
async function shownText(site: Frame, selector: string, text: string): Promise<string> {
  const handle = await site.waitForFunction(
    ([selector, text]) => {
      const root = document.querySelector('.visual-builder__container')?.shadowRoot;
      const found = root?.querySelector(selector.replace('.visual-builder__container ', ''));
      const shown = found && !(found as HTMLElement).hidden ? (found.textContent ?? '') : '';
      return shown.includes(text as string) ? shown : false;
    },
    [selector, text] as const,
    { timeout: 5_000 },
  );
  return (await handle.jsonValue()) as string;
}

async function axeSerious(site: Frame, part: string): Promise<string[]> {
  await site.evaluate(AXE_SOURCE);
  return site.evaluate(async (part) => {
    type Result = { violations: { id: string; impact: string; nodes: { target: unknown }[] }[] };
    const axe = (window as unknown as { axe: { run(context: unknown): Promise<Result> } }).axe;
    const { violations } = await axe.run({ include: [['.visual-builder__container', part]] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, part);
}

t.test('hovering shows the field path, the content type and the referring field, asked once', async (t) => {
  const { page, site } = await openBuilder(t, [['labels', '']]);
  for (let x = 5; x <= 45; x += 10) {
    await site.hover(HEADLINE, { position: { x, y: 5 } });
    await nextFrames(site);
  }
  const text = await shownText(site, HOVER_LABEL, 'Referenced from Template in Page');
  t.match(text, /^Page template :.*Headline/, 'content type, then the field path');
  const [name] = await waitFor(page, 'get-content-type-name');
  t.same(name?.data, { content_type_uid: 'page_template' }, '4.4.1’s payload');
  const [map] = await waitFor(page, 'get-reference-map');
  t.same(map?.data, {}, '4.4.1 asks the whole map');
  t.equal((await received(page, 'get-content-type-name')).length, 1, 'asked once for five moves');
  t.equal((await received(page, 'get-reference-map')).length, 1);
  t.same(await axeSerious(site, '.visual-builder__hover-toolbar'), [], 'axe: hover toolbar');
  await focusField(site, HEADLINE);
  await waitFor(page, 'get-content-type-name', 2);
  t.pass('focusing asks again');
  t.match(await shownText(site, TOOLBAR, 'Referenced from Template in Page'), /Page template :/);
  t.notOk(await site.isVisible(HOVER_LABEL), 'no hover toolbar over the focused field');
});

t.test('an editor that does not answer leaves the label as it was', async (t) => {
  const { site } = await openBuilder(t);
  await site.hover(HEADLINE, { position: { x: 5, y: 5 } });
  const text = await shownText(site, HOVER_LABEL, 'Headline');
  t.notMatch(text, /:|Referenced/, 'no content type, no referring field');
});

t.test('field-location apps: buttons a keyboard reaches; choosing one sends 4.4.1’s payload', async (t) => {
  const { page, site } = await openBuilder(t, [['apps', JSON.stringify(APPS)]]);
  await focusField(site, HEADLINE);
  const [asked] = await waitFor(page, 'field-location-data');
  t.same(Object.keys(asked?.data as object), ['domEditStack']);
  t.match((asked?.data as { domEditStack: unknown[] } | undefined)?.domEditStack.at(-1), {
    cslpValue: 'page_template.dishwasher.en-GB.body_components.0.headline',
  });
  const first = `${UI} [data-testid="field-location-icon"]`;
  await site.waitForSelector(first, { timeout: 5_000 });
  t.equal(await site.getAttribute(first, 'aria-label'), 'Translator');
  await site.focus(first);
  await site.press(first, 'Enter');
  const [chosen] = await waitFor(page, 'field-location-selected-app');
  const data = chosen?.data as { app: unknown; position: Record<string, number>; DomEditStack: unknown[] };
  t.same(Object.keys(data).sort(), ['DomEditStack', 'app', 'position'], '4.4.1’s keys');
  t.same(data.app, APPS.apps[0], 'the whole app record');
  t.ok((data.position.width ?? 0) > 0 && (data.position.height ?? 0) > 0, 'the apps’ box on the page');
  t.match(data.DomEditStack.at(-1), { cslpValue: 'page_template.dishwasher.en-GB.body_components.0.headline' });

  const more = `${UI} [data-testid="field-location-more-button"]`;
  await site.press(first, 'Tab');
  t.equal(
    await site.evaluate(() =>
      document.querySelector('.visual-builder__container')?.shadowRoot?.activeElement?.getAttribute('data-testid'),
    ),
    'field-location-more-button',
    'Tab reaches More apps',
  );
  await site.press(more, 'Enter');
  t.equal(await site.getAttribute(more, 'aria-expanded'), 'true');
  await site.fill(`${UI} .tb-app-search`, 'seo');
  await site.waitForSelector(`${UI} .tb-app-item:has-text("Spell check")`, { state: 'hidden', timeout: 5_000 });
  t.same(await axeSerious(site, '.visual-builder__focused-toolbar'), [], 'axe: toolbar with the app list open');
  await site.click(`${UI} .tb-app-item:has-text("SEO helper")`);
  const both = await waitFor(page, 'field-location-selected-app', 2);
  t.same((both[1]?.data as { app: unknown } | undefined)?.app, APPS.apps[2]);

  // The editor opens the app over the page: the page stops scrolling until it closes.
  await page.evaluate(() => window.channels.vb.send('toggle-scroll', { scroll: false }));
  await site.evaluate(() => window.focus());
  await site.press('body', 'PageDown');
  await nextFrames(site);
  t.equal(await site.evaluate(() => scrollY), 0, 'the page does not scroll under the app');
  t.ok(await site.isVisible(`${TOOLBAR}:not([hidden])`), 'the toolbar stays');
  await page.evaluate(() => window.channels.vb.send('toggle-scroll', { scroll: true }));
  await site.press('body', 'PageDown');
  await site.waitForFunction(() => scrollY > 0, undefined, { timeout: 5_000 });
  t.pass('the page scrolls again once the app closes');
});

t.test('without apps, or with an editor that refuses, the toolbar has no app buttons', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  await roundTrip(page);
  t.equal(await site.locator(`${UI} [data-testid="visual-builder__field-location-apps"]`).count(), 0);
});
