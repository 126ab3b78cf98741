import type { Frame } from 'playwright-core';
import t from 'tap';
import { DISHWASHER, HEADLINE, PSEUDO, SUBLINE, T, UI } from './builder-page.ts';
import { roundTrip, startEditorSuite, waitFor } from './editor.ts';
import { fixturePage, keysOf, startReferenceFixture, TAGGED } from './reference-441.ts';

/**
 * live-preview-utils 4.x's preview-share links, Start Editing link, links under Timeline, the
 * `data-cs-last-edited` mark and invalid `data-cslp` values, in Chromium with the real
 * @contentstack/advanced-post-message as the editor: each scenario runs against our layer on a
 * storefront page and against the published 4.4.1 build on a fixture page carrying the same tags,
 * with the same assertions on the messages and on the page. Where 4.4.1 differs on purpose the
 * test asserts what both share and names the difference.
 */

/** The editor's answers, the same for both sites; `windowType` in the query is the builder's. */
const EDITOR = `
  const { lp, vb } = channels;
  const windowType = params.get('windowType') ?? 'builder';
  const text = (uid) => ({ data_type: 'text', uid, display_name: uid, field_metadata: {} });
  window.schema = {
    'body_components.headline': text('headline'),
    'body_components.subline': text('subline'),
    body_components: { data_type: 'blocks', uid: 'body_components', display_name: 'Body', multiple: true },
  };
  record(lp, 'init', () => ({ contentTypeUid: 'page_template', entryUid: 'dishwasher', windowType: 'preview' }));
  // Logged apart from the live-preview init, whose type is the same.
  vb.on('init', (event) => {
    received.push({ type: 'builder-init', data: event.data });
    return { windowType, stackDetails: { masterLocale: 'en-GB' } };
  });
  record(vb, 'get-field-schema', () => ({ fieldSchemaMap: schema }));
  record(vb, 'get-permissions', () => ({ create: true, read: true, update: true, delete: true, publish: true }));
  record(vb, 'get-field-display-names', (list) => Object.fromEntries(list.map((c) => [c.cslpValue, c.fieldPath])));
  record(vb, 'get-content-type-name', () => ({ contentTypeName: 'Page template' }));
  record(vb, 'get-reference-map', () => ({}));
  record(vb, 'get-field-variant-status', () => ({}));
  // The stored value of a field is what the test says the editor saved (none: the page's own).
  window.stored = {};
  record(vb, 'get-field-data', (data) => ({ fieldData: stored[data.entryPath] }));
  record(vb, 'get-resolved-variant-permissions', () => ({ update: true }));
  record(vb, 'get-workflow-stage-details', () => ({ stage: { name: 'Draft' }, permissions: { entry: { update: true } } }));
  record(vb, 'get-highlight-variant-fields-status', () => ({ highlightVariantFields: false }));
  for (const type of ['send-variant-and-locale', 'mouse-click', 'focus-field', 'field-location-data'])
    record(vb, type);
  for (const type of ['check-entry-page', 'url-change']) record(lp, type);`;

declare global {
  interface Window {
    /** The editor's stored field values, by entry path. */
    stored: Record<string, string>;
  }
}

const editor = await startEditorSuite(t, { script: EDITOR });
const editorUrl = new URL(editor.origin);

/**
 * A fixture page with the storefront's tags, running 4.4.1 in builder mode (as a Visual Editor
 * site does), its editor links pointing at the test editor as the storefront's do.
 */
const FIXTURE = fixturePage(
  TAGGED,
  `mode: 'builder', ssr: true,
    clientUrlParams: { protocol: 'http', host: '${editorUrl.hostname}', port: ${editorUrl.port} }`,
);

/**
 * A fixture page in preview mode without SSR, with a same-origin link: 4.4.1 decorates links only
 * under SSR, Timeline or a new tab, so here Timeline alone is why it does.
 */
const TIMELINE = fixturePage(
  `<h1 data-cslp="${T}.body_components.0.headline">AquaSense 60</h1>
  <a href="/next"><span>Next page</span></a>`,
  `mode: 'preview', ssr: false`,
  '4.4.1 timeline',
);

const fixture = await startReferenceFixture(t, {
  '/fixture': FIXTURE,
  '/timeline': TIMELINE,
  '/next': '<!doctype html><title>next</title>',
});

/** A moment in the Timeline view: `preview_timestamp` in the page's query. */
const TIMESTAMP = '2026-05-01T10:00:00.000Z';

const QUERY = 'live_preview=share-e2e&content_type_uid=page_template&entry_uid=dishwasher';

/** One site the scenarios run against. */
interface Site {
  name: string;
  /** The page with `query` added. */
  url(query: string): string;
  /** A page with a same-origin link under Timeline, and the link (a child of it is clicked). */
  timeline(query: string): string;
  link: string;
}

const OURS: Site = {
  name: 'our layer',
  url: (query) => editor.server.url('uk', `${DISHWASHER}?${query}`),
  timeline: (query) => editor.server.url('uk', `${DISHWASHER}?${query}`),
  link: 'main a[href^="/"]',
};

const LPU_441: Site = {
  name: 'live-preview-utils 4.4.1',
  url: (query) => fixture.url(`/fixture?${query}`),
  timeline: (query) => fixture.url(`/timeline?${query}`),
  link: 'main a[href^="/"]',
};

/** Resolves once the builder's container is on the page (ours and 4.4.1's share the class). */
const mounted = async (site: Frame) => void (await site.waitForSelector(UI, { state: 'attached', timeout: 10_000 }));

for (const s of [OURS, LPU_441]) {
  const skip = s === LPU_441 && fixture.skip;

  // 4.4.1 mounts its builder UI (cursor, overlay, toolbar container) when the URL carries
  // `builder` or, since 4.0.1, `preview_share`: the editor opens shared previews without `builder`.
  t.test(
    `${s.name}: a preview-share link without builder mounts the builder UI and asks the builder init`,
    { skip },
    async (t) => {
      const { page, site } = await editor.open(t, s.url(`${QUERY}&preview_share=share-token`), {
        until: 'builder-init',
        query: [['windowType', 'preview-share']],
      });
      const [init] = await waitFor(page, 'builder-init');
      t.same(keysOf(init?.data), ['href', 'isSSR'], 'the builder init, as 4.4.1 sends it');
      await mounted(site);
      t.pass('the builder UI is on the shared page');
    },
  );

  // 4.3 moved the link from 3.2.5's `…/visual-builder` to `…/visual-editor`; the query (branch,
  // environment, target-url, the first tag's locale) is unchanged.
  t.test(
    `${s.name}: opened outside the editor, Start Editing links to #!/stack/{apiKey}/visual-editor`,
    { skip },
    async (t) => {
      const context = await editor.browser.newContext({ viewport: { width: 1280, height: 900 } });
      t.teardown(() => context.close());
      const page = await context.newPage();
      const url = s.url('live_preview=share-e2e&builder=true');
      await page.goto(url);
      const link = page.locator('[data-testid="vcms-start-editing-btn"]');
      await link.waitFor({ timeout: 10_000 });
      t.match(await link.textContent(), 'Start Editing');
      await link.hover();
      const href = new URL((await link.getAttribute('href')) ?? '');
      t.equal(href.origin, editor.origin, 'the editor the page is configured with');
      t.equal(href.pathname, '/');
      t.match(href.hash, /^#!\/stack\/blt-e2e\/visual-editor\?/);
      const query = new URLSearchParams(href.hash.split('?')[1]);
      t.equal(query.get('target-url'), url, 'the page itself');
      t.equal(query.get('environment'), 'preview');
      t.equal(query.get('locale'), 'en-GB', 'the locale of the first tag');
      // 4.4.1 also mounts its (empty) builder container whenever the URL carries `builder`; ours
      // mounts nothing the editor is not there to use.
      if (s === OURS) t.equal(await page.locator(UI).count(), 0, 'no builder UI outside the editor');
    },
  );

  // 4.4.1 decorates links only under SSR, Timeline or a new tab and takes `live_preview` from the
  // page's address; ours decorates every preview page's links, with the editor's latest hash
  // (the same here: the editor sent no other).
  t.test(
    `${s.name}: under Timeline a same-origin link keeps the preview parameters and preview_timestamp`,
    { skip },
    async (t) => {
      const url = s.timeline(`${QUERY}&preview_timestamp=${encodeURIComponent(TIMESTAMP)}`);
      const { page, site } = await editor.open(t, url, { until: 'init' });
      // Answered (with an error: nothing listens) only once the site has handled the init reply.
      await page.evaluate(() => window.channels.lp.send('e2e-round-trip').catch(() => undefined));
      const link = site.locator(s.link).first();
      const before = new URL((await link.getAttribute('href')) ?? '', url);
      t.equal(before.searchParams.get('live_preview'), null, 'the link is plain until clicked');
      await link.click();
      await site.waitForURL((next) => next.pathname === before.pathname, { timeout: 10_000 });
      const next = new URL(site.url());
      t.equal(next.searchParams.get('live_preview'), 'share-e2e');
      t.equal(next.searchParams.get('content_type_uid'), 'page_template');
      t.equal(next.searchParams.get('entry_uid'), 'dishwasher');
      t.equal(next.searchParams.get('preview_timestamp'), TIMESTAMP, 'the next page shows the same moment');
    },
  );

  t.test(
    `${s.name}: data-cs-last-edited follows the field typed into, and a return to it edits a copy`,
    { skip },
    async (t) => {
      const { page, site } = await editor.open(t, s.url(`${QUERY}&builder=true`), { until: 'send-variant-and-locale' });
      await mounted(site);
      // The editor stores what the page shows, so only the mark can send an edit to a copy.
      const store = async (selector: string, path: string) => {
        const text = (await site.textContent(selector)) ?? '';
        await page.evaluate(
          ({ path, text }) => {
            window.stored[path] = text;
          },
          { path, text },
        );
      };
      const marked = () => site.$$eval('[data-cs-last-edited]', (all) => all.map((el) => el.getAttribute('data-cslp')));
      await store(HEADLINE, 'body_components.0.headline');
      await store(SUBLINE, 'body_components.0.subline');

      await site.click(HEADLINE);
      await site.waitForSelector(`${HEADLINE}[contenteditable="true"][data-cs-last-edited="true"]`, { timeout: 5_000 });
      await page.keyboard.type('!');
      t.same(await marked(), [`${T}.body_components.0.headline`], 'the field being edited carries the mark');
      await store(HEADLINE, 'body_components.0.headline');

      // The focus overlay covers the rest of the page: a click on it leaves the field.
      const leave = async (selector: string) => {
        await site.click('body', { position: { x: 5, y: 5 }, force: true });
        await site.waitForFunction(
          (selector) => !document.querySelector<HTMLElement>(selector)?.isContentEditable,
          selector,
          {
            timeout: 5_000,
          },
        );
      };
      await leave(HEADLINE);
      await site.click(SUBLINE);
      await site.waitForSelector(`${SUBLINE}[contenteditable="true"]`, { timeout: 5_000 });
      await page.keyboard.type('!');
      await site.waitForFunction(
        ({ headline, subline }) =>
          !document.querySelector(headline)?.hasAttribute('data-cs-last-edited') &&
          document.querySelector(subline)?.getAttribute('data-cs-last-edited') === 'true',
        { headline: HEADLINE, subline: SUBLINE },
        { timeout: 5_000 },
      );
      t.pass('typing into another field moves the mark there');
      await store(SUBLINE, 'body_components.0.subline');

      // Away, then back to the field edited last.
      await leave(SUBLINE);
      await site.click(SUBLINE);
      await site.waitForSelector(PSEUDO, { timeout: 5_000 });
      t.pass('the field edited last is edited in a copy, though the page shows the stored value');
    },
  );

  // 4.3's isValidCslp: a tag without content type, entry or locale, or a v2 tag without
  // `entry_variant`, is no field: hover, click and the entry list pass over it, and nothing throws.
  t.test(`${s.name}: invalid data-cslp values are skipped without an error`, { skip }, async (t) => {
    const { page, site } = await editor.open(t, s.url(`${QUERY}&builder=true`), { until: 'send-variant-and-locale' });
    await mounted(site);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    const bad = [
      'page_template..en-GB.body_components.0.bad',
      'v2:page_template.dishwasher.en-GB.body_components.0.bad',
    ];
    await site.evaluate((bad) => {
      const main = document.querySelector('main');
      for (const [index, value] of bad.entries()) {
        const element = document.createElement('p');
        element.id = `bad-${index}`;
        element.textContent = `Bad tag ${index}`;
        element.setAttribute('data-cslp', value);
        main?.prepend(element);
      }
    }, bad);
    for (const id of ['#bad-0', '#bad-1']) {
      await site.hover(id);
      await site.click(id);
    }
    await roundTrip(page);
    t.same(errors, [], 'no error on the page or in the console');
    t.equal(await site.$$eval('[contenteditable="true"]', (all) => all.length), 0, 'neither is edited');
    const sent = JSON.stringify(await page.evaluate(() => window.received));
    t.notMatch(sent, 'body_components.0.bad', 'nothing about them reaches the editor');
    const { entriesInCurrentPage } = (await page.evaluate(() =>
      window.channels.vb.send('get-entries-in-current-page'),
    )) as { entriesInCurrentPage: { entryUid: string }[] };
    t.notOk(
      entriesInCurrentPage.some((entry) => !entry.entryUid),
      'the entry list names no entry without a uid',
    );
    await site.click(HEADLINE);
    await site.waitForSelector(`${HEADLINE}[contenteditable="true"]`, { timeout: 5_000 });
    t.pass('a valid field is still edited');
  });
}
