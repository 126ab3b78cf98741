import t from 'tap';
import { nextFrames } from './browser.ts';
import {
  BAR,
  DISHWASHER,
  FAQ_0,
  focusField,
  HEADLINE,
  IMAGE,
  PRODUCT,
  pressEscape,
  REASON,
  SUBLINE,
  startBuilderSuite,
  T,
  TITLE,
  TOOLBAR,
  tag,
  UI,
} from './builder-page.ts';
import { received, roundTrip, waitFor } from './editor.ts';

/**
 * The visual builder's toolbar in Chromium, framed by the test editor (builder-page.ts): every
 * disabled reason, tooltips on disabled buttons, the invalid-tag badge, scroll-to-field, Space on a
 * toolbar button, the asset, reference and comment modals, tooltips that flip, and the hand-over to
 * collaboration.
 */

const { editor, openBuilder } = await startBuilderSuite(t);

t.test('every disabled reason shows in the toolbar with a grey outline', async (t) => {
  const { page, site } = await openBuilder(t);
  const reasonOf = async (selector: string) => {
    await site.locator(selector).scrollIntoViewIfNeeded();
    await site.locator(selector).dispatchEvent('click');
    await site.waitForSelector(`${TOOLBAR}:not([hidden])`);
    const reason = await site
      .locator(REASON)
      .textContent({ timeout: 2_000 })
      .catch(() => '');
    const grey = await site.isVisible(`${UI} .visual-builder__overlay--outline.disabled`);
    t.equal(await site.getAttribute(selector, 'contenteditable'), null, 'not editable');
    await pressEscape(site);
    t.ok(grey, 'grey outline');
    return reason;
  };
  t.equal(await reasonOf(TITLE), 'You do not have permission to edit this entry');
  t.equal(await reasonOf(tag('body_components.3.items.0.question')), 'You have only read access to this field');
  t.equal(
    await reasonOf(tag('body_components.3.items.0.answer')),
    'Editing this field is restricted in localized entries',
  );
  t.equal(
    await reasonOf(tag('footer_components.0.groups.0.title')),
    'This field is not editable as it is not linked to the selected variant',
  );
  await page.evaluate(async () => {
    await window.channels.vb.send('get-variant-id', { variant: 'cs_variant_1' });
    await window.channels.vb.send('get-locale', { locale: 'de-DE' });
  });
  t.equal(await reasonOf(HEADLINE), 'This field is not editable as it is not localized');
  await page.evaluate(async () => {
    await window.channels.vb.send('get-variant-id', {});
    await window.channels.vb.send('set-audience-mode', { audienceMode: true });
  });
  t.equal(await reasonOf(HEADLINE), 'Open an Experience from Audience widget to start editing');
  await site.evaluate((selector) => {
    document.querySelector(selector)?.classList.add('visual-builder__disabled-variant-field');
  }, HEADLINE);
  t.equal(await reasonOf(HEADLINE), "This field is not editable as it doesn't match the selected variant");
});

t.test(
  'variant-patch-update on the live-preview channel: in audience mode a re-tagged field becomes a variant field',
  async (t) => {
    const { page, site } = await openBuilder(t);
    const variantTag = `v2:${T.replace('dishwasher', 'dishwasher_cs_variant_1')}.body_components.0.headline`;
    await page.evaluate(async (variant) => {
      await window.channels.vb.send('set-audience-mode', { audienceMode: true });
      await window.channels.vb.send('get-variant-id', { variant: 'cs_variant_1' });
      await window.channels.lp.send('variant-patch-update', {
        highlightVariantFields: true,
        expectedCSLPValues: { variant, base: 'unused' },
      });
    }, variantTag);
    await site.evaluate(
      ([selector, value]) => document.querySelector(selector as string)?.setAttribute('data-cslp', value as string),
      [HEADLINE, variantTag],
    );
    await site.waitForFunction(
      (value) => document.querySelector(`[data-cslp="${value}"]`)?.classList.contains('visual-builder__variant-field'),
      variantTag,
      { timeout: 5_000 },
    );
    const classes = await site.getAttribute(`[data-cslp="${variantTag}"]`, 'class');
    t.match(classes, /visual-builder__variant-field--outline/, 'highlighted');
    t.notMatch(classes, /visual-builder__base-field/, 'no longer a base field');
  },
);

t.test('a field the schema does not know shows the invalid-tag badge', async (t) => {
  const { site } = await openBuilder(t);
  await focusField(site, SUBLINE);
  const badge = site.locator(`${UI} [data-testid="visual-builder__focused-toolbar__error"]`);
  t.equal(await badge.textContent(), 'Error');
  t.equal(await badge.getAttribute('data-tooltip'), 'Invalid CSLP tag\nThe CSLP is invalid or incorrectly generated.');
  t.equal(await site.getAttribute(SUBLINE, 'contenteditable'), null, 'a field without a type is not edited in place');
});

t.test('opened outside the editor, a builder page offers Start Editing with a link to the visual editor', async (t) => {
  const context = await editor.browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const url = editor.server.url('uk', `${DISHWASHER}?live_preview=builder-e2e&builder=true`);
  await page.goto(url);
  const link = page.locator('[data-testid="vcms-start-editing-btn"]');
  await link.waitFor({ timeout: 10_000 });
  t.equal(await link.textContent(), 'Start Editing');
  const href = new URL((await link.getAttribute('href')) ?? '');
  t.equal(href.origin, editor.origin);
  t.match(href.hash, /^#!\/stack\/blt-e2e\/visual-editor\?/);
  t.equal(new URLSearchParams(href.hash.split('?')[1]).get('target-url'), url);
  t.equal(await page.locator('.visual-builder__container').count(), 0, 'no builder UI outside the editor');
});

t.test('scroll-to-view-field-by-cslp-value brings the field to the middle of the frame', async (t) => {
  const { page, site } = await openBuilder(t);
  const target = tag('body_components.3.title');
  const offCentre = () =>
    site.$eval(target, (el) => {
      const r = el.getBoundingClientRect();
      return Math.abs(r.top + r.height / 2 - innerHeight / 2);
    });
  t.ok((await offCentre()) > 100, 'not in the middle before');
  await page.evaluate(() =>
    window.channels.vb.send('scroll-to-view-field-by-cslp-value', {
      cslpData: {
        content_type_uid: 'page_template',
        entry_uid: 'dishwasher',
        locale: 'en-GB',
        path: 'body_components.3.title',
      },
    }),
  );
  await site.waitForFunction(
    (selector) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return r && Math.abs(r.top + r.height / 2 - innerHeight / 2) < 2;
    },
    target,
    { timeout: 5_000 },
  );
  t.ok((await offCentre()) < 2, 'centred');
});

t.test('Space on a focused toolbar button types a space into the field being edited', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  await site.press(HEADLINE, 'End');
  const form = `${UI} [data-testid="visual-builder-form"]`;
  await site.focus(form);
  t.ok(await site.$eval(form, (el) => el.matches(':focus')), 'the button has the focus');
  await page.keyboard.press('Space');
  await page.keyboard.type('x');
  t.match(
    await site.textContent(HEADLINE),
    /^AquaSense 60[ \u00a0]x$/,
    'a space, then the typing goes on in the field',
  );
  // Had the key pressed the button, its focus-field would have reached the editor before this answer.
  await roundTrip(page);
  const forms = (await received(page, 'focus-field')).filter(
    (r) => (r.data as { toggleVisibility?: boolean }).toggleVisibility,
  );
  t.equal(forms.length, 0, 'the button was not pressed');
});

t.test('Replace on a file field opens the asset modal, on a reference field the reference modal', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, IMAGE);
  await site.click(`${UI} [data-testid="visual-builder-replace-file"]`);
  const [asset] = await waitFor(page, 'open-asset-modal');
  t.match(asset?.data, {
    fieldMetadata: {
      cslpValue: `${T}.body_components.0.image`,
      fieldPath: 'body_components.image',
      fieldPathWithIndex: 'body_components.0.image',
      content_type_uid: 'page_template',
      entry_uid: 'dishwasher',
      locale: 'en-GB',
    },
  });
  await pressEscape(site);

  await site.locator(PRODUCT).scrollIntoViewIfNeeded();
  await focusField(site, PRODUCT);
  t.equal(await site.getAttribute(PRODUCT, 'data-cslp-field-type'), 'reference');
  await site.click(`${UI} [data-testid="visual-builder-replace-reference"]`);
  const [reference] = await waitFor(page, 'open-reference-modal');
  t.same(reference?.data, {
    entry_uid: 'dishwasher',
    content_type_uid: 'page_template',
    locale: 'en-GB',
    fieldPath: 'body_components.products.name',
    fieldPathWithIndex: 'body_components.4.products.0.name',
    entryPath: 'body_components.4.products.0.name',
  });
  t.ok(page.url().startsWith(editor.origin) && site.url().includes(DISHWASHER), 'the link was not followed');
});

const COMMENT = `${UI} [data-testid="${BAR}comment-button"]`;

t.test('Add comment: the discussion request fails, so a new discussion goes to the comment modal', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  const button = site.locator(COMMENT);
  await site.waitForSelector(`${COMMENT}[aria-label="Add comment"]:not([disabled])`);
  await button.click();
  const [opened] = await waitFor(page, 'open-field-comment-modal');
  t.match(opened?.data, {
    fieldMetadata: { cslpValue: `${T}.body_components.0.headline`, fieldPath: 'body_components.headline' },
    discussion: { uid: 'new' },
    fieldSchema: { uid: 'headline', display_name: 'Headline' },
  });
});

t.test('comments: an existing discussion is opened; none offered hides the button', async (t) => {
  const { page, site } = await openBuilder(t, [['discussion', JSON.stringify({ uid: 'd-7', title: 'Headline' })]]);
  await focusField(site, HEADLINE);
  const [asked] = await waitFor(page, 'get-discussion-id-for-comment-modal');
  t.match(asked?.data, {
    fieldMetadata: { cslpValue: `${T}.body_components.0.headline` },
    fieldSchema: { uid: 'headline' },
  });
  await site.click(`${COMMENT}[aria-label="View comments"]`);
  const [opened] = await waitFor(page, 'open-field-comment-modal');
  t.match(opened?.data, { discussion: { uid: 'd-7', title: 'Headline' } });

  const none = await openBuilder(t, [['discussion', JSON.stringify({ error: true })]]);
  await focusField(none.site, HEADLINE);
  await waitFor(none.page, 'get-discussion-id-for-comment-modal');
  // The answer has been handled, and the toolbar drawn again, before the next request's answer.
  await roundTrip(none.page);
  t.equal(await none.site.locator(COMMENT).count(), 0, 'no comment button');
});

t.test('tooltips flip below a button near the top of the frame and stay on screen', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  const form = `${UI} [data-testid="visual-builder-form"]`;
  const tooltip = `${UI} .visual-builder__tooltip`;
  const measure = async (fieldTop: number) => {
    // Out of the frame: the previous tooltip goes.
    await page.mouse.move(1250, 850);
    await site.evaluate(
      ([selector, top]) => {
        const el = document.querySelector(selector as string) as Element;
        window.scrollBy(0, el.getBoundingClientRect().top - (top as number));
      },
      [HEADLINE, fieldTop] as const,
    );
    await nextFrames(site);
    await site.hover(form);
    await site.waitForSelector(`${tooltip}[data-placement]:not([hidden])`);
    return site.evaluate(
      ([buttonSelector]) => {
        const root = document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
        const button = root.querySelector(buttonSelector as string) as Element;
        const tip = root.querySelector('.visual-builder__tooltip') as HTMLElement;
        const b = button.getBoundingClientRect();
        const r = tip.getBoundingClientRect();
        return {
          text: tip.textContent,
          placement: tip.getAttribute('data-placement'),
          below: r.top >= b.bottom,
          above: r.bottom <= b.top,
          onScreen: r.top >= 0 && r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
        };
      },
      ['[data-testid="visual-builder-form"]'],
    );
  };
  const low = await measure(400);
  t.match(low, { text: 'Form', placement: 'top', above: true, onScreen: true }, 'above when there is room');
  const high = await measure(44);
  t.match(high, { text: 'Form', placement: 'bottom', below: true, onScreen: true }, 'flipped below near the top');
  // Room above the toolbar for the tooltip, but the field is within 96 px of the top: below.
  const within = await measure(90);
  t.match(within, { placement: 'bottom', below: true }, 'below when the field is within 96 px of the top');
  const beyond = await measure(110);
  t.match(beyond, { placement: 'top', above: true }, 'above again beyond 96 px');

  await site.locator(FAQ_0).scrollIntoViewIfNeeded();
  await site.locator(FAQ_0).dispatchEvent('click');
  const add = site.locator(`${UI} [data-testid="visual-builder-add-instance-button"]`).nth(1);
  await add.hover();
  await site.waitForSelector(`${tooltip}[data-placement]:not([hidden])`);
  t.equal(await site.locator(tooltip).textContent(), 'Add section');
});

t.test('hide-focus-overlay from collaboration deselects and leaves clicks to comments', async (t) => {
  const { page, site } = await openBuilder(t);
  await focusField(site, HEADLINE);
  await page.evaluate(() => window.channels.vb.send('hide-focus-overlay', {}));
  await site.waitForSelector(`${TOOLBAR}[hidden]`, { state: 'attached' });
  await focusField(site, SUBLINE);
  t.pass('without fromCollab the builder keeps working');

  await page.evaluate(() => window.channels.vb.send('hide-focus-overlay', { fromCollab: true }));
  await site.waitForSelector(`${TOOLBAR}[hidden]`, { state: 'attached' });
  const clicks = (await received(page, 'mouse-click')).length;
  await site.click(HEADLINE);
  // A mouse-click would have reached the editor before this answer.
  await roundTrip(page);
  t.equal((await received(page, 'mouse-click')).length, clicks, 'no mouse-click');
  t.ok(await site.locator(`${TOOLBAR}[hidden]`).count(), 'no toolbar');
  t.equal(await site.getAttribute(HEADLINE, 'contenteditable'), null, 'nothing editable');
});
