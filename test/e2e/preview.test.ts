import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { waitForIsland } from './browser.ts';
import { DRAFT_TOKEN, startEditorSuite } from './editor.ts';
import { ROOT } from './server.ts';

/**
 * Live preview in Chromium with the real editor library: a tiny editor page
 * on another origin frames the storefront and drives it with @contentstack/advanced-post-message,
 * exactly as the Contentstack app does. Covered: the handshake, a draft change reaching the page
 * without a reload, the timeline (base route, tag contents, a sanitised diff and its removal), the
 * edit button on hover with the right link, and messages from foreign windows being ignored.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const HEADLINE = '[data-cslp="page_template.dishwasher.en-GB.body_components.0.headline"]';
const RUN = `e2e${Date.now().toString(36)}`;

declare global {
  interface Window {
    attack(hash: string): Promise<string>;
    morphed?: number;
    marker?: string;
  }
}

/** The editor answers init in preview mode; `?sibling=` frames play foreign windows next to the site. */
const EDITOR = `
  record(channels.lp, 'init', () => ({ contentTypeUid: 'page', entryUid: '4711', windowType: 'preview' }));
  for (const type of ['check-entry-page', 'scroll', 'url-change']) record(channels.lp, type);
  for (const sibling of params.getAll('sibling')) {
    const extra = document.createElement('iframe');
    extra.name = new URL(sibling).host;
    extra.src = sibling;
    document.body.append(extra);
  }`;
/** A window that is not the site's parent: it talks to the site frame directly. */
const SIBLING = `<!doctype html><html><body><script src="/apm.js"></script><script>
  const manager = new ContentstackAdvPostMessage.EventManager('live-preview', { target: parent.frames[0], targetOrigin: '*', suppressErrors: true });
  window.attack = (hash) => manager.send('client-data-send', { hash }).then(() => 'answered', (error) => String(error?.code ?? error));
</script></body></html>`;

const editor = await startEditorSuite(t, { script: EDITOR, pages: { '/sibling': SIBLING } });
const { server, browser, origin: editorOrigin, foreignOrigin } = editor;
/** Draft hashes this run wrote, removed at the end. */
const drafts: string[] = [];
t.teardown(async () => {
  // Only this run's drafts: everything else under _drafts belongs to someone.
  for (const hash of drafts) await rm(join(ROOT, 'content', '_drafts', hash), { recursive: true, force: true });
});

const previewUrl = (hash: string) =>
  server.url('uk', `${DISHWASHER}?live_preview=${hash}&content_type_uid=page&entry_uid=4711`);

/** The editor page framing the dishwasher preview; resolves once the editor has the layer's init. */
const openEditor = (t: Test, hash: string, siblings: string[] = []) =>
  editor.open(t, previewUrl(hash), { query: siblings.map((sibling) => ['sibling', sibling]) });

async function putDraft(hash: string, change: (template: { body_components: Record<string, unknown>[] }) => void) {
  drafts.push(hash);
  const template = JSON.parse(await readFile(join(ROOT, 'content/en-GB/page_template/dishwasher.json'), 'utf8'));
  change(template);
  const response = await fetch(`${server.origin}/cs/api/contentstack/_drafts/${hash}/en-GB/page_template/dishwasher`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${DRAFT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(template),
  });
  if (response.status !== 201) throw new Error(`draft not saved: ${response.status} ${await response.text()}`);
}

t.test('handshake: the real editor gets init, answers it, and hears check-entry-page', async (t) => {
  const { page, site } = await openEditor(t, `${RUN}a`);
  const init = await page.evaluate(() => window.received.find((r) => r.type === 'init'));
  t.same(init?.data, {
    config: { shouldReload: false, href: previewUrl(`${RUN}a`), sdkVersion: '4.4.1', mode: 1 },
  });
  const started = await site.evaluate(
    () => performance.timeOrigin + (performance.getEntriesByName('vitrine-preview:start')[0]?.startTime ?? Number.NaN),
  );
  const elapsed = (init?.at ?? Number.NaN) - started;
  // Measured and printed, not held to a time (it depends on the machine).
  t.ok(Number.isFinite(elapsed) && elapsed >= 0, 'the editor receives init after the script started');
  t.comment(`startup: script start → init received by the editor in ${elapsed.toFixed(1)} ms`);
  await page.waitForFunction(() => window.received.some((r) => r.type === 'check-entry-page'), undefined, {
    timeout: 5_000,
  });
  t.same(await page.evaluate(() => window.received.find((r) => r.type === 'check-entry-page')?.data), {
    href: previewUrl(`${RUN}a`),
  });
});

t.test('a draft saved through the draft API reaches the page on client-data-send, without a reload', async (t) => {
  const hash = `${RUN}b`;
  const { page, site } = await openEditor(t, `${RUN}base`);
  await waitForIsland(site, 'header');
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === site) navigations++;
  });
  await site.evaluate(() => {
    window.marker = 'still the same document';
    document.addEventListener('vitrine:morphed', () => {
      window.morphed = (window.morphed ?? 0) + 1;
    });
    window.scrollTo(0, 420);
    (document.querySelector('vitrine-island[data-name="header"]') as HTMLElement & { kept?: boolean }).kept = true;
    const link = document.querySelector('main a[href]') as HTMLAnchorElement & { kept?: boolean };
    link.kept = true;
    link.focus({ preventScroll: true });
  });
  t.equal(await site.textContent(HEADLINE), 'AquaSense 60');

  await putDraft(hash, (template) => {
    (template.body_components[0] as { headline: string }).headline = 'AquaSense 60, now quieter';
  });
  await page.evaluate((hash) => window.channels.lp.send('client-data-send', { hash }), hash);
  await site.waitForFunction(
    (selector) => document.querySelector(selector)?.textContent === 'AquaSense 60, now quieter',
    HEADLINE,
    { timeout: 10_000, polling: 50 },
  );
  const after = await site.evaluate(() => ({
    marker: window.marker,
    morphed: window.morphed,
    scrollY: window.scrollY,
    headerKept: (document.querySelector('vitrine-island[data-name="header"]') as HTMLElement & { kept?: boolean }).kept,
    headerHydrated: document.querySelector('vitrine-island[data-name="header"]')?.hasAttribute('data-hydrated'),
    focusKept: (document.activeElement as Element & { kept?: boolean }).kept,
  }));
  t.same(after, {
    marker: 'still the same document',
    morphed: 1,
    scrollY: 420,
    headerKept: true,
    headerHydrated: true,
    focusKept: true,
  });
  t.equal(navigations, 0, 'the frame never navigated');
});

t.test('timeline: base route, tag contents, a sanitised diff, and its removal', async (t) => {
  const { page, site } = await openEditor(t, `${RUN}c`);
  const send = (type: string, payload?: unknown) =>
    page.evaluate(([type, payload]) => window.channels.tl.send(type as string, payload), [type, payload] as const);
  t.same(await send('send-current-base-route'), { url: server.url('uk', DISHWASHER) });
  const tags = (await send('send-cslp-data')) as Record<string, string>;
  t.equal(tags['page_template.dishwasher.en-GB.body_components.0.headline'], 'AquaSense 60');
  t.match(
    tags['page_template.dishwasher.en-GB.body_components.0.image'] ?? '',
    /^src -> \/images\/dishwasher\.jpg\n(.+ -> .*\n)*data-cslp -> page_template\.dishwasher\.en-GB\.body_components\.0\.image\n$/,
    'void elements as their attributes, one per line',
  );

  const before = await site.innerHTML(HEADLINE);
  await send('diff-value', {
    type: 'compare',
    diff: {
      'page_template.dishwasher.en-GB.body_components.0.headline':
        'AquaSense <cs-compare class="cs-compare--added">60</cs-compare><cs-compare class="cs-compare--added"> Pro</cs-compare>' +
        '<img src="/nope.png" onerror="document.title=\'hacked\'"><script>document.title="hacked"</script>',
    },
  });
  const diffed = await site.evaluate((selector) => {
    const element = document.querySelector(selector) as HTMLElement;
    const wrapper = element.querySelector('cs-compare.cs-compare--added');
    return {
      wrappers: element.querySelectorAll('cs-compare').length,
      text: wrapper?.textContent,
      background: wrapper ? getComputedStyle(wrapper).backgroundColor : null,
      scripts: element.querySelectorAll('script').length,
      handlers: element.querySelectorAll('[onerror]').length,
      title: document.title,
    };
  }, HEADLINE);
  t.same(diffed, {
    wrappers: 1,
    text: '60 Pro',
    background: 'rgba(0, 122, 82, 0.2)',
    scripts: 0,
    handlers: 0,
    title: 'AquaSense 60 dishwasher | Halden',
  });
  await send('remove-diff');
  t.equal(await site.innerHTML(HEADLINE), before, 'the original content is back');
});

t.test('hovering a field shows the edit button; Edit asks the editor to scroll to the field', async (t) => {
  const { page, site } = await openEditor(t, `${RUN}d`);
  await site.hover(HEADLINE);
  const shown = await site.evaluate((selector) => {
    const tooltip = document.getElementById('cslp-tooltip') as HTMLElement;
    const field = document.querySelector(selector) as HTMLElement;
    return {
      tag: tooltip.getAttribute('current-data-cslp'),
      size: [tooltip.offsetWidth, tooltip.offsetHeight],
      position: getComputedStyle(tooltip).position,
      outline: getComputedStyle(field).outlineStyle,
      gap: field.getBoundingClientRect().top - tooltip.getBoundingClientRect().top,
    };
  }, HEADLINE);
  t.same(shown, {
    tag: 'page_template.dishwasher.en-GB.body_components.0.headline',
    size: [72, 35],
    position: 'fixed',
    outline: 'dashed',
    gap: 40,
  });
  await site.click('#cslp-tooltip [data-test-id="cslp-singular-edit-button"]');
  await page.waitForFunction(() => window.received.some((r) => r.type === 'scroll'));
  t.same(await page.evaluate(() => window.received.find((r) => r.type === 'scroll')?.data), {
    field: 'body_components.0.headline',
    content_type_uid: 'page_template',
    entry_uid: 'dishwasher',
    locale: 'en-GB',
  });
});

t.test('outside the editor, Edit opens the field in the editor in a new tab', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(previewUrl(`${RUN}e`));
  await page.waitForSelector('#cslp-tooltip', { state: 'attached' });
  await page.hover(HEADLINE);
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    page.click('#cslp-tooltip [data-test-id="cslp-singular-edit-button"]'),
  ]);
  t.equal(
    popup.url(),
    `${editorOrigin}/#!/stack/blt-e2e/content-type/page_template/en-GB/entry/dishwasher/edit?preview-field=body_components.0.headline&preview-locale=en-GB&preview-environment=preview`,
  );
});

t.test('messages from windows other than the editor are ignored: no ACK, no change', async (t) => {
  const { page, site } = await openEditor(t, `${RUN}f`, [`${foreignOrigin}/sibling`, `${editorOrigin}/sibling`]);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  for (const origin of [foreignOrigin, editorOrigin]) {
    const sibling = page.frames().find((frame) => frame.url() === `${origin}/sibling`);
    await sibling?.waitForFunction(() => typeof window.attack === 'function');
    const outcome = await sibling?.evaluate(() => window.attack('evil'));
    t.equal(outcome, 'contentstack-adv-post-message: The ACK was not received', `a sibling frame on ${origin}`);
  }
  t.notOk(
    requests.some((url) => url.includes('live_preview=evil')),
    'the page never fetched the foreign hash',
  );
  t.equal(await site.textContent(HEADLINE), 'AquaSense 60');
  t.equal(
    await page.evaluate(() => window.channels.lp.send('client-data-send', { hash: `${'x'}` })),
    undefined,
    'the editor still is',
  );
});
