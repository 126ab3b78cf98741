import type { Frame, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { DISHWASHER, HEADLINE, REASON, T, UI } from './builder-page.ts';
import { received, startEditorSuite, waitFor } from './editor.ts';
import { fixturePage, keysOf, startReferenceFixture, TAB_EDITOR, TAGGED } from './reference-441.ts';

/**
 * live-preview-utils 4.x's variant features and workflow-stage lock, in Chromium, with the real
 * @contentstack/advanced-post-message as the editor: each scenario runs twice, against our layer on
 * a storefront page and against the published 4.4.1 build (vendored under
 * test/fixtures/live-preview-utils-4.4.1) on a fixture page carrying the same tags, and asserts the
 * same messages (names and payload keys) and the same marks on the page, also when the editor
 * selects a variant (`get-variant-id`: this editor answers the highlight status, as a 4.x editor does). So each assertion is
 * known to describe 4.4.1, not our reading of it. Then Live Preview in a new tab, for our layer:
 * the editor is `window.opener`, and a foreign opener is ignored.
 */

/** The editor's answers: the same for both sites; `stage` in the query locks the entry. */
const EDITOR = `
  const { lp, vb } = channels;
  const text = (uid, meta) => ({ data_type: 'text', uid, display_name: uid, field_metadata: meta ?? {} });
  window.schema = {
    'body_components.headline': text('headline', params.has('link') ? { isUnlinkedVariant: true, canLinkVariant: true } : {}),
    'body_components.subline': text('subline'),
    body_components: { data_type: 'blocks', uid: 'body_components', display_name: 'Body', multiple: true },
  };
  record(lp, 'init', () => ({ contentTypeUid: 'page_template', entryUid: 'dishwasher', windowType: 'builder' }));
  record(vb, 'init', () => ({ windowType: 'builder', stackDetails: { masterLocale: 'en-GB' } }));
  record(vb, 'get-field-schema', () => ({ fieldSchemaMap: schema }));
  record(vb, 'get-permissions', () => ({ create: true, read: true, update: true, delete: true, publish: true }));
  record(vb, 'get-field-display-names', (list) => Object.fromEntries(list.map((c) => [c.cslpValue, c.fieldPath])));
  record(vb, 'get-content-type-name', () => ({ contentTypeName: 'Page template' }));
  record(vb, 'get-reference-map', () => ({}));
  record(vb, 'get-field-data', () => ({ fieldData: 'AquaSense' }));
  record(vb, 'get-field-variant-status', () => ({}));
  record(vb, 'get-resolved-variant-permissions', () => ({ update: true }));
  record(vb, 'get-workflow-stage-details', () => params.has('stage')
    ? { stage: { name: 'Legal review' }, permissions: { entry: { update: false } } }
    : { stage: { name: 'Draft' }, permissions: { entry: { update: true } } });
  record(vb, 'get-highlight-variant-fields-status', () => ({ highlightVariantFields: false }));
  record(vb, 'open-link-variant-modal', () => ({ type: 'error', message: 'closed' }));
  for (const type of ['send-variant-and-locale', 'mouse-click', 'focus-field', 'field-location-data'])
    record(vb, type);
  for (const type of ['check-entry-page', 'url-change']) record(lp, type);`;

/** The 4.4.1 fixture page: the storefront's tags, the real 4.4.1 build started in builder mode. */
const FIXTURE = fixturePage(TAGGED, `mode: 'builder', ssr: true`);

/**
 * A foreign page that took the editor's place in the opener window: it finds the tab by its name
 * (an opener may reach the window it opened) and sends it a hash change.
 */
const USURPER = `<!doctype html><html><body><script src="/apm.js"></script><script>
  const tab = window.open('', new URLSearchParams(location.search).get('name'));
  const lp = new ContentstackAdvPostMessage.EventManager('live-preview', { target: tab, suppressErrors: true });
  window.received = [];
  lp.on('init', (event) => void received.push({ type: 'init', data: event.data }));
  window.result = lp.send('client-data-send', { hash: 'evil', _metadata: { event_type: 'hash_change' } })
    .then(() => 'answered', () => 'refused');
</script></body></html>`;

declare global {
  interface Window {
    /** The usurper page: whether the tab answered its request. */
    result: Promise<string>;
  }
}

const editor = await startEditorSuite(t, { script: EDITOR, pages: { '/tab': TAB_EDITOR, '/usurper': USURPER } });
const fixture = await startReferenceFixture(t, { '/fixture': FIXTURE });

const QUERY = 'live_preview=variants-e2e&content_type_uid=page_template&entry_uid=dishwasher&builder=true';

/** One site the scenarios run against, and where its UI differs. */
interface Site {
  name: string;
  url: string;
  /** Resolves once the builder UI is mounted. */
  ready(site: Frame): Promise<void>;
  /** Clicks the field's "link a variant" control. */
  linkVariant(site: Frame): Promise<void>;
  /** The disabled reason shown for the focused field. */
  reason(site: Frame): Promise<string>;
}

const OURS: Site = {
  name: 'our layer',
  url: editor.server.url('uk', `${DISHWASHER}?${QUERY}`),
  ready: async (site) => void (await site.waitForSelector(UI, { state: 'attached', timeout: 10_000 })),
  linkVariant: (site) => site.click(`${UI} [data-testid="visual-builder__focused-toolbar__link-variant"]`),
  reason: async (site) => (await site.locator(REASON).textContent({ timeout: 5_000 })) ?? '',
};

const LPU_441: Site = {
  name: 'live-preview-utils 4.4.1',
  url: fixture.url(`/fixture?${QUERY}`),
  ready: async (site) =>
    void (await site.waitForSelector('.visual-builder__container', { state: 'attached', timeout: 10_000 })),
  // 4.4.1's tooltip is a div whose click links; it shows on hover, so it is clicked as a script would.
  async linkVariant(site) {
    const handle = await site.waitForFunction(
      () =>
        [...document.querySelectorAll('.visual-builder__focused-toolbar div')]
          .filter((div) => div.textContent?.includes('Click here to link a variant'))
          .pop(),
      undefined,
      { timeout: 5_000 },
    );
    await handle.evaluate((div) => (div as HTMLElement).click());
  },
  // A plain reason is the info icon's data-tooltip; one with a link is the tooltip's text.
  async reason(site) {
    const handle = await site.waitForFunction(
      () => {
        const toolbar = document.querySelector('.visual-builder__focused-toolbar');
        // The toolbar's buttons have data-tooltips too: a reason is the one that says what is not allowed.
        const plain = [...(toolbar?.querySelectorAll('[data-tooltip]') ?? [])]
          .map((element) => element.getAttribute('data-tooltip') ?? '')
          .find((tip) => /not editable|do not have|restricted/.test(tip));
        const linked = [...(toolbar?.querySelectorAll('div') ?? [])]
          .filter((div) => div.textContent?.startsWith('This field is not editable'))
          .pop()?.textContent;
        return linked || plain;
      },
      undefined,
      { timeout: 5_000 },
    );
    return (await handle.jsonValue()) as string;
  },
};

const SITES = [OURS, LPU_441];

async function open(t: Test, s: Site, query: [string, string][] = []) {
  const opened = await editor.open(t, s.url, { until: 'send-variant-and-locale', query });
  await s.ready(opened.site);
  return opened;
}

/** Appends fields of other variants to the page: cs0 is ordered before the selected cs1, cs2 is not ordered. */
const addVariantFields = (site: Frame) =>
  site.evaluate((prefix) => {
    const main = document.querySelector('main') as HTMLElement;
    for (const variant of ['cs0', 'cs2'])
      main.insertAdjacentHTML(
        'beforeend',
        `<p id="${variant}" data-cslp="v2:${prefix}_${variant}.en-GB.title">${variant}</p>`,
      );
  }, 'page_template.dishwasher');

const classesOf = (site: Frame, id: string) =>
  site.evaluate((id) => [...(document.getElementById(id)?.classList ?? [])].sort(), id);

for (const s of SITES) {
  // Without the vendored build the reference runs are skipped, and say so.
  const skip = s === LPU_441 && fixture.skip;
  t.test(
    `${s.name}: the highlight status is asked; variantOrder marks the lower-order variant’s fields`,
    { skip },
    async (t) => {
      const { page, site } = await open(t, s);
      const [status] = await waitFor(page, 'get-highlight-variant-fields-status');
      t.same(keysOf(status?.data), [], 'asked without a payload');
      await addVariantFields(site);
      await page.evaluate(async () => {
        await window.channels.vb.send('set-audience-mode', { audienceMode: true });
        await window.channels.vb.send('get-variant-id', { variant: 'cs1' });
        await window.channels.vb.send('show-variant-fields', {
          variant_data: { variant: 'cs1', highlightVariantFields: false, variantOrder: ['cs0', 'cs1'] },
        });
      });
      t.same(await classesOf(site, 'cs0'), [
        'visual-builder__lower-order-variant-field',
        'visual-builder__variant-field',
      ]);
      t.same(await classesOf(site, 'cs2'), ['visual-builder__disabled-variant-field'], 'a variant outside the order');
      await page.evaluate(() => window.channels.vb.send('remove-variant-fields', {}));
      t.same(await classesOf(site, 'cs0'), [], 'removed');
    },
  );

  t.test(`${s.name}: get-variant-id marks the page again with the order last shown`, { skip }, async (t) => {
    const { site, page } = await open(t, s);
    await addVariantFields(site);
    await page.evaluate(async () => {
      await window.channels.vb.send('show-variant-fields', {
        variant_data: { variant: 'cs1', highlightVariantFields: false, variantOrder: ['cs0', 'cs1'] },
      });
      await window.channels.vb.send('remove-variant-fields', {});
    });
    t.same(await classesOf(site, 'cs0'), [], 'unmarked');
    await page.evaluate(() => window.channels.vb.send('get-variant-id', { variant: 'cs1' }));
    t.same(await classesOf(site, 'cs0'), [
      'visual-builder__lower-order-variant-field',
      'visual-builder__variant-field',
    ]);
    t.same(await classesOf(site, 'cs2'), ['visual-builder__disabled-variant-field']);
    t.ok(
      await site.evaluate(
        (tag) => document.querySelector(`[data-cslp="${tag}"]`)?.classList.contains('visual-builder__base-field'),
        `${T}.body_components.0.headline`,
      ),
      'a base entry field',
    );
  });

  t.test(`${s.name}: an unlinked field the user may link sends open-link-variant-modal`, { skip }, async (t) => {
    const { page, site } = await open(t, s, [['link', '1']]);
    await site.click(HEADLINE);
    t.match(await s.reason(site), /^This field is not editable as it is not linked to the selected variant\./);
    await s.linkVariant(site);
    const [linked] = await waitFor(page, 'open-link-variant-modal');
    t.same(linked?.data, { contentTypeUid: 'page_template' }, '4.4.1’s payload');
  });

  t.test(
    `${s.name}: a workflow stage that locks the entry: asked with 4.4.1’s keys, not editable`,
    { skip },
    async (t) => {
      const { page, site } = await open(t, s, [['stage', '1']]);
      await site.click(HEADLINE);
      t.equal(await s.reason(site), "You do not have Edit access to this entry on the 'Legal review' workflow stage");
      t.equal(await site.getAttribute(HEADLINE, 'contenteditable'), null, 'not editable in place');
      const asked = await received(page, 'get-workflow-stage-details');
      t.ok(asked.length > 0);
      t.same(keysOf(asked[0]?.data), ['contentTypeUid', 'entryUid', 'locale', 'variantUid']);
      t.match(asked[0]?.data, { entryUid: 'dishwasher', contentTypeUid: 'page_template', locale: 'en-GB' });
      const [permission] = await waitFor(page, 'get-resolved-variant-permissions');
      t.same(keysOf(permission?.data), ['content_type_uid', 'entry_uid', 'fieldPathWithIndex', 'locale', 'variant']);
    },
  );
}

async function openTab(t: Test, editorOrigin: string, name = '_blank') {
  const context = await editor.browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  const site = editor.server.url(
    'uk',
    `${DISHWASHER}?live_preview=tab-e2e&content_type_uid=page_template&entry_uid=dishwasher`,
  );
  await page.goto(`${editorOrigin}/tab?${new URLSearchParams({ site, name })}`);
  const [tab] = await Promise.all([page.waitForEvent('popup'), page.evaluate(() => window.openSite())]);
  await tab.waitForLoadState('load');
  return { page, tab: tab as Page };
}

t.test('our layer in a new tab: the opener is the editor; hash_change and url_change are followed', async (t) => {
  const { page, tab } = await openTab(t, editor.origin);
  await page.waitForFunction(() => window.received.length > 0, undefined, { timeout: 15_000 });
  const [init] = await page.evaluate(() => window.received);
  t.match(init?.data, { config: { sdkVersion: '4.4.1', mode: 1 } });
  await page.evaluate(() =>
    window.channels.lp.send('client-data-send', { hash: 'tab-2', _metadata: { event_type: 'hash_change' } }),
  );
  t.equal(new URL(tab.url()).searchParams.get('live_preview'), 'tab-2', 'the address carries the new hash');
  const next = new URL(tab.url());
  next.pathname = '/cs/kitchen';
  await Promise.all([
    tab.waitForURL((url) => url.pathname === '/cs/kitchen', { timeout: 10_000 }),
    page.evaluate(
      (url) =>
        window.channels.lp.send('client-data-send', { hash: 'tab-2', url, _metadata: { event_type: 'url_change' } }),
      next.href,
    ),
  ]);
  t.pass('the tab went where the editor went');
});

t.test('our layer in a new tab opened by a foreign window: nothing reaches it, nothing is answered', async (t) => {
  const { page, tab } = await openTab(t, editor.foreignOrigin);
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  const answer = await page.evaluate(() =>
    window.channels.lp.send('client-data-send', { hash: 'evil', _metadata: { event_type: 'hash_change' } }).then(
      () => 'answered',
      () => 'refused',
    ),
  );
  t.equal(answer, 'refused', 'the layer never heard it: no ACK, no answer');
  t.equal(new URL(tab.url()).searchParams.get('live_preview'), 'tab-e2e');
  t.same(await page.evaluate(() => window.received), [], 'the init went to the editor origin only');
  t.same(errors, [], 'no error in the page');
});

t.test(
  '75. the opener navigates away and a foreign page takes its place: it is not heard and hears nothing',
  async (t) => {
    const { page, tab } = await openTab(t, editor.origin, 'site-tab');
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await page.waitForFunction(() => window.received.length > 0, undefined, { timeout: 15_000 });
    await page.goto(`${editor.foreignOrigin}/usurper?name=site-tab`);
    t.equal(await page.evaluate(() => window.result), 'refused', 'no ACK, no answer from the tab');
    t.equal(new URL(tab.url()).searchParams.get('live_preview'), 'tab-e2e', 'the address is unchanged');
    // The tab still posts to the editor's origin only: a reload's init never reaches the usurper.
    await tab.reload();
    await tab.waitForLoadState('load');
    t.same(await page.evaluate(() => window.received), [], 'nothing reached the foreign page');
    t.same(errors, [], 'no error in the page');
  },
);

t.test(
  '76. a flood of url_change and malformed _metadata from the editor: ignored, each answered, no error',
  async (t) => {
    const { page, tab } = await openTab(t, editor.origin);
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await page.waitForFunction(() => window.received.length > 0, undefined, { timeout: 15_000 });
    const outcomes = await page.evaluate(async () => {
      const urls = [
        'javascript:alert(1)',
        'http://evil.example/',
        '//evil.example/x',
        'data:text/html,x',
        `http://evil.example/${'x'.repeat(100_000)}`,
      ];
      const flood = Array.from({ length: 400 }, (_, i) => ({
        hash: 'tab-e2e',
        url: urls[i % urls.length],
        _metadata: { event_type: 'url_change' },
      }));
      const malformed = [
        { hash: 'tab-e2e', _metadata: 'url_change' },
        { hash: 'tab-e2e', _metadata: null },
        { hash: 'tab-e2e', _metadata: ['url_change'] },
        { hash: 'tab-e2e', url: 42, _metadata: { event_type: 'url_change' } },
        { hash: 'tab-e2e', _metadata: { event_type: { toString: null } } },
        { hash: 42, _metadata: { event_type: 'hash_change' } },
        'not an object',
      ];
      const results = await Promise.all(
        [...flood, ...malformed].map((payload) =>
          window.channels.lp.send('client-data-send', payload).then(
            () => 'answered',
            (error) =>
              String(error?.message ?? error).includes('hash') || String(error).includes('object')
                ? 'rejected'
                : 'lost',
          ),
        ),
      );
      const count: Record<string, number> = {};
      for (const result of results) count[result] = (count[result] ?? 0) + 1;
      return count;
    });
    t.notOk(outcomes.lost, 'every message was answered: none queued or dropped');
    t.equal(outcomes.rejected ?? 0, 2, 'the two payloads without a string hash get an error answer');
    const url = new URL(tab.url());
    t.equal(url.pathname, DISHWASHER, 'the tab stayed on its page');
    t.equal(url.searchParams.get('live_preview'), 'tab-e2e');
    await page.evaluate(() =>
      window.channels.lp.send('client-data-send', { hash: 'tab-3', _metadata: { event_type: 'hash_change' } }),
    );
    t.equal(new URL(tab.url()).searchParams.get('live_preview'), 'tab-3', 'and still follows the editor');
    t.same(errors, [], 'no error in the page');
  },
);
