import t from 'tap';
import { focusField, HEADLINE, REASON, startBuilderSuite, UI } from './builder-page.ts';
import { received, waitFor } from './editor.ts';

/**
 * What live-preview-utils 4.x added, in Chromium, the editor played by the real
 * @contentstack/advanced-post-message (builder-page.ts): a workflow stage that locks the entry, the
 * request for edit access, a field missing from the selected variant, the 4.4.1 payloads of the
 * questions. Toggle-scroll stopping the page under an app is in toolbar-tab-4x.test.ts, against
 * 4.4.1 as well.
 */

const { openBuilder } = await startBuilderSuite(t);

const LOCKED = {
  stage: { name: 'Legal review' },
  permissions: { entry: { update: false } },
  requestEditAccess: { canRequest: true, hasPending: false },
};

t.test('a workflow stage that locks the entry: not editable, reason shown, Request Edit Access', async (t) => {
  const { page, site } = await openBuilder(t, [['stage', JSON.stringify(LOCKED)]]);
  await focusField(site, HEADLINE);
  t.equal(
    await site.locator(REASON).textContent(),
    "You do not have the edit access to this entry on the 'Legal review' workflow stage.",
  );
  t.equal(await site.getAttribute(HEADLINE, 'contenteditable'), null, 'not editable in place');
  const buttons = await site.evaluate(() => {
    const root = document.querySelector('.visual-builder__container')?.shadowRoot as ShadowRoot;
    return [
      ...root.querySelectorAll<HTMLButtonElement>('.visual-builder__focused-toolbar .tb-button[data-testid]'),
    ].map((button) => button.disabled);
  });
  t.ok(buttons.length > 0 && !buttons.includes(false), `toolbar actions disabled (${buttons.length})`);
  t.ok(await site.isVisible(`${UI} .visual-builder__overlay--outline.disabled`), 'grey outline');
  const [asked] = await waitFor(page, 'get-workflow-stage-details');
  t.same(
    Object.keys(asked?.data as object).sort(),
    ['contentTypeUid', 'entryUid', 'locale', 'variantUid'],
    '4.4.1’s keys',
  );
  t.match(asked?.data, { entryUid: 'dishwasher', contentTypeUid: 'page_template', locale: 'en-GB' });
  await site.click(`${UI} [data-testid="visual-builder__focused-toolbar__request-edit-access"]`);
  const [request] = await waitFor(page, 'open-request-edit-access');
  t.same(request?.data, { entryUid: 'dishwasher', contentTypeUid: 'page_template', locale: 'en-GB' });
});

t.test('a field missing from the variant is locked; without answers every field stays editable', async (t) => {
  const locked = await openBuilder(t, [['variantPermission', JSON.stringify({ update: false })]]);
  await focusField(locked.site, HEADLINE);
  t.equal(await locked.site.locator(REASON).textContent(), 'This field does not exist in the selected variant');
  const [asked] = await waitFor(locked.page, 'get-resolved-variant-permissions');
  t.same(asked?.data, {
    content_type_uid: 'page_template',
    entry_uid: 'dishwasher',
    locale: 'en-GB',
    fieldPathWithIndex: 'body_components.0.headline',
  });
  const open = await openBuilder(t);
  await focusField(open.site, HEADLINE);
  await open.site.waitForSelector(`${HEADLINE}[contenteditable]`, { timeout: 5_000 });
  t.equal(await open.site.locator(REASON).count(), 0, 'no reason: an editor of 3.2.5 days sees no difference');
  t.same(await received(open.page, 'get-workflow-stage-details'), [], 'an unanswered question is not recorded');
});
