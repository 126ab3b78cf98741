import t from 'tap';
import { until } from '../until.ts';
import { nextFrames } from './browser.ts';
import {
  BAR,
  FAQ_0,
  FAQ_1,
  focusField,
  HEADLINE,
  PRICE,
  PSEUDO,
  pressEscape,
  SUBLINE,
  startBuilderSuite,
  T,
  TITLE,
  TOOLBAR,
  UI,
} from './builder-page.ts';
import { received, waitFor } from './editor.ts';

/**
 * The visual builder in Chromium: an editor page on another origin frames the dishwasher page with
 * `builder=true` and plays the editor with the real @contentstack/advanced-post-message
 * (builder-page.ts). Covered: hover outline and cursor, click-to-focus messages and the time to the
 * toolbar, inline editing with throttled sync-field and a final update-field, multiline plain-text
 * paste with the overlay and toolbar following the growing field, number key filtering on a
 * pseudo-editable copy, add / move / delete on a multiple field and a failing add. The toolbar's
 * own tests are in builder-toolbar.test.ts: one file would pass the per-file time limit on a loaded
 * machine.
 */

const { openBuilder } = await startBuilderSuite(t);

t.test('hover: dashed outline over the field and the field type on the cursor', async (t) => {
  const { page, site } = await openBuilder(t);
  await site.hover(HEADLINE);
  const outline = await site.waitForSelector(`${UI} .visual-builder__hover-outline:not([hidden])`);
  await site.waitForSelector(`${UI} .visual-builder__cursor.visible[data-icon="singleline"]`);
  const [box, field, style] = await Promise.all([
    outline.boundingBox(),
    site.locator(HEADLINE).boundingBox(),
    outline.evaluate((el) => getComputedStyle(el).outlineStyle),
  ]);
  t.equal(style, 'dashed');
  t.ok(box && field && Math.abs(box.x - field.x) < 1 && Math.abs(box.width - field.width) < 1, 'same box as the field');
  await site.hover(PRICE);
  await site.waitForSelector(`${UI} .visual-builder__cursor.visible[data-icon="number"]`);
  t.ok(await site.isVisible(`${UI} .visual-builder__cursor-icon svg path`), 'the number icon on the cursor');
  t.same((await received(page, 'get-field-schema')).length, 1, 'the schema is asked once per content type');
  // A field the user may not edit: grey outline and a greyed cursor.
  await site.hover(TITLE);
  await site.waitForSelector(`${UI} .visual-builder__hover-outline--disabled:not([hidden])`);
  await site.waitForSelector(`${UI} .visual-builder__cursor-disabled`);
  const grey = 'rgb(144, 144, 144)';
  t.equal(
    await site.$eval(`${UI} .visual-builder__cursor-icon`, (el) => getComputedStyle(el).backgroundColor),
    grey,
    'the icon is greyed',
  );
  await site.locator(TITLE).dispatchEvent('click');
  const label = site.locator(`${UI} [data-testid="visual-builder__focused-toolbar__field-label"]`);
  await label.waitFor();
  t.equal(await label.evaluate((el) => getComputedStyle(el).backgroundColor), grey, 'a greyed toolbar label');
  t.equal(await label.locator('svg').count(), 1, 'with the field-type icon');
});

t.test('click: mouse-click and focus-field with the field metadata; the time to the toolbar is printed', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  const elapsed = await site.evaluate(
    () =>
      (performance.getEntriesByName('vitrine-builder:toolbar').at(-1)?.startTime ?? Number.NaN) -
      (performance.getEntriesByName('vitrine-builder:click').at(-1)?.startTime ?? Number.NaN),
  );
  t.ok(
    Number.isFinite(elapsed) && elapsed >= 0,
    'the toolbar is drawn after the click (both user-timing marks recorded)',
  );
  t.comment(`click → toolbar visible in ${elapsed.toFixed(1)} ms`);

  const metadata = {
    content_type_uid: 'page_template',
    entry_uid: 'dishwasher',
    locale: 'en-GB',
    cslpValue: `${T}.body_components.0.headline`,
    fieldPath: 'body_components.headline',
    fieldPathWithIndex: 'body_components.0.headline',
    multipleFieldMetadata: {
      index: 0,
      parentDetails: { parentPath: 'body_components', parentCslpValue: `${T}.body_components` },
    },
    instance: { fieldPathWithIndex: 'body_components.0.headline' },
  };
  const [click] = await waitFor(page, 'mouse-click');
  t.match(click?.data, { cslpData: `${T}.body_components.0.headline`, fieldMetadata: metadata });
  const [focus] = await waitFor(page, 'focus-field');
  t.match(focus?.data, { DOMEditStack: [metadata] });
  t.equal((focus?.data as { DOMEditStack: unknown[] } | undefined)?.DOMEditStack.length, 1, 'one entry on the stack');
  t.equal(await site.getAttribute(HEADLINE, 'contenteditable'), 'true');
  t.equal(await site.getAttribute(HEADLINE, 'data-cslp-field-type'), 'singleline');
  t.match(await site.textContent(`${UI} [data-testid="visual-builder__focused-toolbar__field-label"]`), /Headline/);
  t.ok(await site.isVisible(`${UI} .visual-builder__overlay__wrapper.visible .visual-builder__overlay--outline`));
});

t.test('inline edit: sync-field at most every 300 ms, update-field with the final text on Escape', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  await site.press(HEADLINE, 'End');
  await site.locator(HEADLINE).pressSequentially(' now quieter', { delay: 40 });
  // The throttle's last sync carries the final text, whenever it fires.
  await until(
    async () =>
      ((await received(page, 'sync-field')).at(-1)?.data as { data?: string } | undefined)?.data?.endsWith(
        'now quieter',
      ),
    { what: 'the trailing sync with the final text' },
  );
  const syncs = await received(page, 'sync-field');
  t.ok(syncs.length >= 2 && syncs.length < 12, `${syncs.length} syncs for 12 key presses`);
  // Receipt times carry the delivery's jitter (on a loaded machine two 300 ms sends arrived under 280 ms apart);
  // an unthrottled layer would send every 40 ms keystroke. The exact 300 ms is asserted on a fake
  // clock in sdk/builder/inline-edit.test.ts.
  for (let i = 1; i < syncs.length; i++) {
    const gap = (syncs[i]?.at ?? 0) - (syncs[i - 1]?.at ?? 0);
    t.ok(gap >= 200, `syncs throttled, not per keystroke (${gap} ms apart)`);
  }
  t.equal(
    (syncs.at(-1)?.data as { data: string } | undefined)?.data,
    'AquaSense 60 now quieter',
    'the last sync has the text',
  );
  await site.press(HEADLINE, 'Enter');
  t.equal(await site.textContent(HEADLINE), 'AquaSense 60 now quieter', 'Enter does not break a single line');
  await pressEscape(site);
  const [update] = await waitFor(page, 'update-field');
  t.match(update?.data, {
    data: 'AquaSense 60 now quieter',
    fieldMetadata: { cslpValue: `${T}.body_components.0.headline` },
  });
  t.equal(await site.getAttribute(HEADLINE, 'contenteditable'), null, 'no longer editable');
});

t.test('multiline: a paste is plain text with its lines; overlay and toolbar follow the growing field', async (t) => {
  const { page, site } = await openBuilder(t);
  await page.evaluate(() => {
    const fields = window.schema.page_template as Record<string, Record<string, unknown>>;
    fields['body_components.subline'] = {
      data_type: 'text',
      uid: 'subline',
      display_name: 'Subline',
      field_metadata: { multiline: true },
    };
  });
  await focusField(site, SUBLINE);
  t.equal(await site.getAttribute(SUBLINE, 'data-cslp-field-type'), 'multiline');
  // Clear of the sticky header, with the toolbar above the field.
  await site.evaluate((selector) => {
    const field = document.querySelector(selector) as Element;
    window.scrollBy(0, field.getBoundingClientRect().top - 200);
  }, SUBLINE);
  await nextFrames(site);
  const geometry = () =>
    site.evaluate((selector) => {
      const root = document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
      // No helper functions in here: the page does not have the test runner's `__name`.
      const [field, outline, below, toolbar] = [
        document.querySelector(selector),
        root.querySelector('.visual-builder__overlay--outline'),
        root.querySelector('.visual-builder__overlay--bottom'),
        root.querySelector('.visual-builder__focused-toolbar'),
      ].map((el) => el?.getBoundingClientRect() as DOMRect);
      return { field, outline, below, toolbar } as Record<'field' | 'outline' | 'below' | 'toolbar', DOMRect>;
    }, SUBLINE);
  // The outline and the overlay below are placed in the same pass, but a caret scroll between two
  // reads can catch one of them a frame behind: wait for both.
  const placed = (g: Awaited<ReturnType<typeof geometry>>) =>
    Math.abs(g.outline.height - g.field.height) < 1 && Math.abs(g.below.top - g.field.bottom) < 1;
  const follows = (g: Awaited<ReturnType<typeof geometry>>, what: string) => {
    t.ok(Math.abs(g.outline.height - g.field.height) < 1, `${what}: the outline has the field's height`);
    t.ok(Math.abs(g.below.top - g.field.bottom) < 1, `${what}: the overlay starts below the field`);
    t.ok(g.toolbar.bottom <= g.field.top && g.toolbar.left === g.field.left, `${what}: the toolbar on the field`);
  };
  /** The geometry once the field is taller than `than` and the overlay placed around it. */
  const grownFrom = (than: Awaited<ReturnType<typeof geometry>>, what: string) =>
    until(
      async () => {
        const g = await geometry();
        return g.field.height > than.field.height && placed(g) && g;
      },
      { what },
    );
  // Typing wraps the text; Chromium may also scroll the caret into view, which repositions too:
  // the 200 ms input reposition on its own is checked with fake timers in sdk/builder/inline-edit.test.ts.
  await site.evaluate(() => window.focus());
  await site.evaluate((selector) => {
    getSelection()?.selectAllChildren(document.querySelector(selector) as Element);
    getSelection()?.collapseToEnd();
  }, SUBLINE);
  // Whatever the focus and the caret scrolled has been followed two frames later.
  await nextFrames(site);
  const before = await geometry();
  follows(before, 'focused');
  await page.keyboard.type(' and every morning, quietly, for years and years', { delay: 10 });
  // Placed again once typing pauses: wait for the overlay to take the grown field's geometry.
  const typed = await grownFrom(before, 'the overlay to follow the typed text');
  t.ok(typed.field.height > before.field.height, 'the typed text wrapped and made the field taller');
  follows(typed, 'after typing');

  const synced = (await received(page, 'sync-field')).length;
  await site.evaluate((selector) => {
    const field = document.querySelector(selector) as HTMLElement;
    getSelection()?.selectAllChildren(field);
    getSelection()?.collapseToEnd();
    const clipboardData = new DataTransfer();
    clipboardData.setData('text/html', '<b>Quiet wash</b><br>all night');
    clipboardData.setData('text/plain', ' Quiet wash\r\nall night');
    field.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
  }, SUBLINE);
  // The typing's trailing sync (at most every 300 ms) may still arrive after the count above: wait
  // for the first one that carries the paste, then check its lines.
  const sync = await until(
    async () =>
      (await received(page, 'sync-field')).slice(synced).find((r) => JSON.stringify(r.data).includes('Quiet wash')),
    { what: 'a sync-field carrying the paste' },
  );
  t.match(sync.data, { data: /Quiet wash\nall night$/ }, 'sync-field has the pasted lines');
  t.equal(await site.locator(`${SUBLINE} b`).count(), 0, 'no markup from the clipboard');
  // Placed again after the paste: wait for the overlay to take the taller field's geometry.
  const pasted = await grownFrom(typed, 'the overlay to follow the paste');
  t.ok(pasted.field.height > typed.field.height, 'the paste made the field taller');
  follows(pasted, 'after the paste');

  await pressEscape(site);
  const [update] = await waitFor(page, 'update-field');
  t.match(
    update?.data,
    { data: /39 dB\. and every morning, quietly, for years and years Quiet wash\nall night$/ },
    'update-field keeps the lines',
  );
});

t.test('a formatted number is edited on a pseudo-editable copy that takes only what makes a number', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, PRICE);
  t.equal(await site.getAttribute(PRICE, 'data-cslp-field-type'), 'number');
  // The page shows `£779`; a copy showing the stored 779 is laid over it and edited instead.
  const copy = site.locator(PSEUDO);
  await copy.waitFor();
  t.equal(await copy.textContent(), '779');
  t.equal(await copy.getAttribute('contenteditable'), 'true');
  t.equal(await site.textContent(PRICE), '£779', 'the field keeps its text');
  t.equal(await site.$eval(PRICE, (el) => getComputedStyle(el).visibility), 'hidden', 'under the copy');
  const [field, over] = await Promise.all([site.locator(PRICE).boundingBox(), copy.boundingBox()]);
  t.ok(field && over && Math.abs(field.x - over.x) < 1 && Math.abs(field.y - over.y) < 1, 'laid over the field');
  await copy.press('End');
  await copy.pressSequentially('x5-.2e.3', { delay: 20 });
  t.equal(await copy.textContent(), '7795.2e3', 'letters, a late minus and a second dot are dropped');
  await pressEscape(site);
  const [update] = await waitFor(page, 'update-field');
  t.equal((update?.data as { data: string } | undefined)?.data, '7795.2e3');
  t.equal(await copy.count(), 0, 'the copy is gone');
  t.equal(await site.$eval(PRICE, (el) => getComputedStyle(el).visibility), 'visible', 'the field is back');
  t.equal(await site.textContent(PRICE), '£779');
});

t.test('a multiple field: move, delete and add around an instance', async (t) => {
  const { page, site } = await openBuilder(t);
  await site.locator(FAQ_0).scrollIntoViewIfNeeded();
  await site.locator(FAQ_0).dispatchEvent('click');
  await site.waitForSelector(`${TOOLBAR}:not([hidden])`);
  t.ok(await site.isDisabled(`${UI} [data-testid="${BAR}move-left-button"]`), 'the first item cannot move up');
  t.notOk(await site.isDisabled(`${UI} [data-testid="${BAR}move-right-button"]`));
  await site.click(`${UI} [data-testid="${BAR}move-right-button"]`);
  const [move] = await waitFor(page, 'move-instance');
  t.match(move?.data, {
    data: 'body_components.3.items.0',
    direction: 'next',
    fieldMetadata: { cslpValue: `${T}.body_components.3.items.0` },
  });
  await site.waitForSelector(`${TOOLBAR}[hidden]`, { state: 'attached' });

  await site.locator(FAQ_1).scrollIntoViewIfNeeded();
  await site.locator(FAQ_1).dispatchEvent('click');
  await site.waitForSelector(`${TOOLBAR}:not([hidden])`);
  t.ok(await site.isDisabled(`${UI} [data-testid="${BAR}move-right-button"]`), 'the last item cannot move down');
  await site.click(`${UI} [data-testid="${BAR}delete-button"]`);
  const [deleted] = await waitFor(page, 'delete-instance');
  t.match(deleted?.data, { data: 'body_components.3.items.1' });
  await site.waitForSelector(`${TOOLBAR}[hidden]`, { state: 'attached' });

  // Add after the first item; the editor's re-render is played by inserting the new item.
  await site.locator(FAQ_0).scrollIntoViewIfNeeded();
  await site.locator(FAQ_0).dispatchEvent('click');
  const adds = site.locator(`${UI} [data-testid="visual-builder-add-instance-button"]`);
  await adds.first().waitFor();
  t.equal(await adds.count(), 2, 'before and after the item');
  t.equal(await adds.nth(1).getAttribute('data-tooltip'), 'Add section');
  await adds.nth(1).click();
  const [add] = await waitFor(page, 'add-instance');
  t.match(add?.data, { index: 1, fieldMetadata: { cslpValue: `${T}.body_components.3.items.0` } });
  const focusesBefore = (await received(page, 'focus-field')).length;
  await site.evaluate(
    ([first, second]) => {
      const one = document.querySelector(second as string) as Element;
      const copy = one.cloneNode(true) as Element;
      copy.setAttribute('data-cslp', 'page_template.dishwasher.en-GB.body_components.3.items.2');
      one.after(copy);
      void first;
    },
    [FAQ_0, FAQ_1],
  );
  const focuses = await waitFor(page, 'focus-field', focusesBefore + 1);
  t.match(
    focuses.at(-1)?.data,
    { DOMEditStack: [{ cslpValue: `${T}.body_components.3.items.1` }] },
    'new item clicked',
  );
});

t.test('adding fails: the loading state clears and the console says why; max instances disable it', async (t) => {
  const { page, site } = await openBuilder(t, [['failAdd', '1']]);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await site.locator(FAQ_0).scrollIntoViewIfNeeded();
  await site.locator(FAQ_0).dispatchEvent('click');
  const add = site.locator(`${UI} [data-testid="visual-builder-add-instance-button"]`).first();
  await add.click();
  t.ok(
    await until(() => errors.some((text) => text.includes('Visual Builder: Failed to add instance')), {
      what: 'the console error',
    }),
    'console error',
  );
  t.notOk(await add.evaluate((el) => el.classList.contains('loading')), 'loading cleared');
  t.notOk(await add.isDisabled(), 'usable again');
  await pressEscape(site);

  const second = await openBuilder(t);
  await second.page.evaluate(() => {
    const items = window.schema.page_template?.['body_components.items'];
    if (items) items.max_instance = 2;
  });
  await second.site.locator(FAQ_0).scrollIntoViewIfNeeded();
  await second.site.locator(FAQ_0).dispatchEvent('click');
  const full = second.site.locator(`${UI} [data-testid="visual-builder-add-instance-button"]`).first();
  await full.waitFor();
  t.ok(await full.isDisabled());
  t.equal(await full.getAttribute('data-tooltip'), 'Max 2 instances allowed');
  // The reason shows on hover although Chromium sends no mouse events to a disabled control.
  await full.hover();
  const tooltip = second.site.locator(`${UI} .visual-builder__tooltip[data-placement]:not([hidden])`);
  await tooltip.waitFor({ timeout: 2_000 });
  t.equal(await tooltip.textContent(), 'Max 2 instances allowed', 'the tooltip says why');
  const first = second.site.locator(`${UI} [data-testid="${BAR}move-left-button"]`);
  t.ok(await first.isDisabled(), 'the first item cannot move back');
  await first.hover();
  await second.site.waitForFunction(
    (label) =>
      document.querySelector('.visual-builder__container')?.shadowRoot?.querySelector('.visual-builder__tooltip')
        ?.textContent === label,
    await first.getAttribute('data-tooltip'),
    { timeout: 2_000 },
  );
  t.pass('a disabled toolbar button shows its tooltip too');
});
