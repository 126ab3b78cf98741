import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { until } from '../until.ts';
import { launchBrowser, waitForIsland } from './browser.ts';
import { ROOT, type RunningServer, startServer } from './server.ts';

/**
 * The preview workbench in Chromium: the built server with WORKBENCH=on,
 * the workbench framing the dishwasher page in preview mode with the real advanced-post-message.
 * Covered: the handshake and the message log; a title edited in the form reaching the page without
 * a reload (draft API + client-data-send); the compare view; publishing changing the plain page.
 * `WORKBENCH_SCREENSHOT=docs/workbench.png` also writes the README's screenshot.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
/** Publishing writes content: the server gets its own copy of the store, removed at the end. */
const CONTENT_COPY = mkdtempSync(join(tmpdir(), 'vitrine-workbench-'));
cpSync(join(ROOT, 'content'), CONTENT_COPY, { recursive: true, filter: (src) => !src.includes('_drafts') });
const TEMPLATE_FILE = join(CONTENT_COPY, 'en-GB/page_template/dishwasher.json');
const CSLP = 'page_template.dishwasher.en-GB.body_components.0.headline';
const HEADLINE = `[data-cslp="${CSLP}"]`;
const TOKEN = 'e2e-workbench-token-0123456789';

declare global {
  interface Window {
    marker?: string;
  }
}

let server: RunningServer;
let browser: Browser;
/** The preview hash of each workbench tab the tests open. */
const hashes: string[] = [];

t.before(async () => {
  // Builder mode needs a stack: environment and API key.
  Object.assign(process.env, {
    WORKBENCH: 'on',
    DRAFT_API_TOKEN: TOKEN,
    PREVIEW_API_KEY: 'blt-e2e',
    PREVIEW_ENVIRONMENT: 'preview',
    CONTENT_DIR: CONTENT_COPY,
  });
  server = await startServer();
  browser = await launchBrowser();
});
t.teardown(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(CONTENT_COPY, { recursive: true, force: true });
});

async function openWorkbench(t: Test, mode = 'preview'): Promise<{ page: Page; site: Frame; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${server.url('uk', '/__workbench')}?locale=en-GB&page=4711&mode=${mode}#token=${TOKEN}`);
  // The layer's init arrived and was answered: both are in the log.
  await page.waitForSelector('.wb-log tr[data-direction="out"][data-type="init"]', { timeout: 15_000 });
  hashes.push((await page.evaluate(() => sessionStorage.getItem('vitrine-workbench-hash'))) as string);
  const site = page.frames().find((frame) => frame.url().includes(DISHWASHER));
  if (!site) throw new Error('the site frame is missing');
  await waitForIsland(site, 'header');
  return { page, site, errors };
}

t.test('the token is asked for, and a wrong one is refused', async (t) => {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(server.url('uk', '/__workbench'));
  await page.fill('input[name="token"]', 'not-the-token');
  await page.click('button[type="submit"]');
  await page.waitForSelector('text=The draft API token was refused');
  t.pass('refused');
});

t.test('pickers: another storefront opens the workbench on its host, another locale frames its page', async (t) => {
  const { page } = await openWorkbench(t);
  await Promise.all([
    page.waitForURL(/\/\/ch\.localhost:\d+\/__workbench/),
    page.selectOption('select[name="storefront"]', 'www.halden.ch'),
  ]);
  await page.waitForSelector('.wb-log tr[data-direction="out"][data-type="init"]', { timeout: 15_000 });
  t.equal(new URL(page.url()).hash, '', 'the token left the address');
  t.equal(await page.inputValue('select[name="locale"]'), 'de-CH');
  await Promise.all([page.waitForURL(/locale=fr-CH/), page.selectOption('select[name="locale"]', 'fr-CH')]);
  await page.waitForSelector('.wb-log tr[data-direction="out"][data-type="init"]', { timeout: 15_000 });
  const framed = page.frames().find((frame) => frame.name() === 'site');
  t.match(
    framed?.url(),
    /^http:\/\/ch\.localhost:\d+\/fr[/?].*live_preview=wb-/,
    'a French page (the home page, the first) of the Swiss storefront',
  );
});

t.test('builder mode: a field clicked in the page and typed in place updates the form and the draft', async (t) => {
  const { page, site, errors } = await openWorkbench(t, 'builder');
  const hash = hashes.at(-1) as string;
  t.match(site.url(), 'builder=true');
  await page.waitForSelector('.wb-log tr[data-direction="in"][data-channel="visual-builder"][data-type="init"]');
  await site.click(HEADLINE);
  await page.waitForSelector('.wb-log tr[data-direction="in"][data-type="get-field-data"]', { timeout: 5_000 });
  await site.waitForSelector(`${HEADLINE}[contenteditable="true"]`, { timeout: 5_000 });
  await site.press(HEADLINE, 'End');
  await site.locator(HEADLINE).pressSequentially(' Pro');
  const input = page.locator(`.wb-side [data-cslp="${CSLP}"]`);
  await page.waitForFunction(
    (selector) => (document.querySelector(selector) as HTMLInputElement | null)?.value === 'AquaSense 60 Pro',
    `.wb-side [data-cslp="${CSLP}"]`,
    { timeout: 5_000 },
  );
  t.equal(await input.inputValue(), 'AquaSense 60 Pro', 'the form follows the page');
  const draftFile = join(CONTENT_COPY, '_drafts', hash, 'en-GB/page_template/dishwasher.json');
  const headline = await until(
    () =>
      readFile(draftFile, 'utf8')
        .then((text) => JSON.parse(text).body_components[0].headline)
        .catch(() => undefined)
        .then((value) => value === 'AquaSense 60 Pro' && value),
    { what: 'the draft file', timeout: 15_000, every: 100 },
  ).catch(() => undefined);
  t.equal(headline, 'AquaSense 60 Pro', 'the draft holds what was typed');
  t.same(errors, [], 'no script errors in the workbench');
});

t.test('builder mode: a field made read-only in the workbench is disabled in the page, with the reason', async (t) => {
  const { page, site, errors } = await openWorkbench(t, 'builder');
  await page.waitForSelector('.wb-log tr[data-direction="in"][data-channel="visual-builder"][data-type="init"]');
  await page.check(`input[name="lock:page_template.dishwasher.${CSLP.split('.').slice(3).join('.')}"]`);
  await page.waitForSelector('.wb-log tr[data-direction="out"][data-type="get-variant-id"]');
  t.ok(await page.locator(`.wb-side [data-cslp="${CSLP}"]`).isDisabled(), 'the form field is read-only too');
  await site.click(HEADLINE);
  await site.getByText('You have only read access to this field').first().waitFor({ timeout: 5_000 });
  t.notOk(await site.getAttribute(HEADLINE, 'contenteditable'), 'not editable in place');
  const answer = await page.$$eval('.wb-log tr[data-direction="out"][data-type="get-field-schema"]', (rows) =>
    rows.map((row) => row.querySelector('td:last-child')?.textContent ?? ''),
  );
  t.ok(
    answer.some(
      (payload) => payload.includes('"body_components.headline":{') && payload.includes('"updateRestrict":true'),
    ),
    'the schema answer restricts the field',
  );
  t.same(errors, [], 'no script errors in the workbench');
});

t.test(
  'builder mode: the workbench variant has its own fields and order: the page marks, locks the fields it lacks',
  async (t) => {
    const { page, site, errors } = await openWorkbench(t, 'builder');
    const subline = `[data-cslp="${CSLP.replace(/headline$/, 'subline')}"]`;
    await page.waitForSelector('.wb-log tr[data-direction="in"][data-channel="visual-builder"][data-type="init"]');
    await page.check(`input[name="variant:page_template.dishwasher.${CSLP.split('.').slice(3).join('.')}"]`);
    await page.selectOption('select[name="variant"]', 'cs_workbench_variant');
    const shown = page.locator('.wb-log tr[data-direction="out"][data-type="show-variant-fields"] td:last-child');
    await shown.first().waitFor({ timeout: 5_000 });
    t.match(
      await shown.first().textContent(),
      '"variantOrder":["cs_workbench_lower","cs_workbench_variant"]',
      'the order given',
    );
    // The store renders no variant content: every tag is the base entry's (0181).
    await site.waitForSelector(`${HEADLINE}.visual-builder__base-field`, { timeout: 5_000 });
    await site.click(HEADLINE);
    await site.waitForSelector(`${HEADLINE}[contenteditable="true"]`, { timeout: 5_000 });
    t.pass("the variant's own field is editable");
    await site.locator(subline).dispatchEvent('click');
    await site.getByText('This field does not exist in the selected variant').first().waitFor({ timeout: 5_000 });
    t.notOk(await site.getAttribute(subline, 'contenteditable'), 'a field the variant lacks is locked');
    t.same(errors, [], 'no script errors in the workbench');
  },
);

t.test('move-instance and delete-instance from the page are applied to the draft and shown', async (t) => {
  const { page, site, errors } = await openWorkbench(t);
  const hash = hashes.at(-1) as string;
  const draftFile = join(CONTENT_COPY, '_drafts', hash, 'en-GB/page_template/dishwasher.json');
  const meta = {
    content_type_uid: 'page_template',
    entry_uid: 'dishwasher',
    locale: 'en-GB',
    fieldPath: 'body_components',
    fieldPathWithIndex: 'body_components',
  };
  // What the builder's toolbar sends, posted from the page to the workbench.
  const request = (type: string, payload: unknown) =>
    site.evaluate(
      ([type, payload]) =>
        parent.postMessage(
          {
            eventManager: 'contentstack-adv-post-message',
            metadata: { hash: `${type}-0000abcd`, nature: 'REQUEST' },
            channel: 'visual-builder',
            error: undefined,
            payload,
            type,
          },
          location.origin,
        ),
      [type, payload] as const,
    );
  const firstUid = async () =>
    JSON.parse(await readFile(draftFile, 'utf8').catch(() => '{"body_components":[{}]}')).body_components[0].uid;

  await request('move-instance', { data: 'body_components.0', direction: 'next', fieldMetadata: meta });
  await until(async () => (await firstUid()) === 'features-dishwasher', { what: 'the moved instance', every: 100 });
  t.equal(await firstUid(), 'features-dishwasher', 'the hero moved after the feature list in the draft');
  await site.waitForFunction(
    (selector) => {
      const hero = document.querySelector(selector.replace('.0.headline', '.1.headline'));
      return hero?.textContent === 'AquaSense 60';
    },
    HEADLINE,
    { timeout: 10_000 },
  );
  t.pass('the page shows the hero second');
  t.ok(
    await page.locator(`.wb-side [data-cslp="${CSLP.replace('.0.', '.1.')}"]`).count(),
    'the form follows the new order',
  );
  await request('delete-instance', { data: 'body_components.1', fieldMetadata: meta });
  await until(async () => !(await readFile(draftFile, 'utf8')).includes('hero-dishwasher'), {
    what: 'the deleted instance',
    every: 100,
  });
  t.notMatch(await readFile(draftFile, 'utf8'), 'hero-dishwasher', 'the hero is deleted from the draft');
  await site.waitForFunction(() => !document.body.textContent?.includes('Spotless results'), undefined, {
    timeout: 10_000,
  });
  t.pass('and from the page');
  t.same(errors, [], 'no script errors in the workbench');
});

t.test(
  'Open in a new tab: the tab talks to its opener; the framed page and the tab each get only their own answers',
  async (t) => {
    const { page, site, errors } = await openWorkbench(t);
    // Every live-preview answer a window receives, by type; a probe request shows the frame is caught up.
    const recordAnswers = () => {
      const w = window as unknown as { answers: string[] };
      w.answers = [];
      addEventListener('message', (event) => {
        const d = event.data;
        if (d?.eventManager === 'contentstack-adv-post-message' && d.metadata?.nature === 'RESPONSE')
          w.answers.push(`${d.channel}:${d.type}:${d.metadata.hash === 'probe' ? 'probe' : ''}`);
      });
    };
    await page.context().addInitScript(recordAnswers);
    await site.evaluate(recordAnswers);
    const [tab] = await Promise.all([page.waitForEvent('popup'), page.click('button[name="new-tab"]')]);
    const answers = (where: Page | Frame) => where.evaluate(() => (window as unknown as { answers: string[] }).answers);
    await tab.waitForFunction(
      () => (window as unknown as { answers: string[] }).answers.includes('live-preview:init:'),
      undefined,
      { timeout: 15_000 },
    );
    const url = new URL(tab.url());
    t.equal(url.pathname, new URL(site.url()).pathname, 'the same page');
    t.equal(url.searchParams.get('live_preview'), hashes.at(-1));
    t.notOk(url.searchParams.has('builder'), 'Live Preview, not the builder');
    await site.evaluate(() =>
      parent.postMessage(
        {
          eventManager: 'contentstack-adv-post-message',
          channel: 'live-preview',
          type: 'check-entry-page',
          payload: { href: location.href },
          metadata: { hash: 'probe', nature: 'REQUEST' },
        },
        '*',
      ),
    );
    await site.waitForFunction(() =>
      (window as unknown as { answers: string[] }).answers.includes('live-preview:check-entry-page:probe'),
    );
    // The frame's own entry-page check (every 1.5 s) is rightly answered to it whenever it falls in
    // this window; what must not reach the frame is the tab's init.
    t.same(
      (await answers(site)).filter((answer) => answer !== 'live-preview:check-entry-page:'),
      ['live-preview:check-entry-page:probe'],
      'the tab’s init was not answered to the frame',
    );
    t.same(
      (await answers(tab)).filter((answer) => answer.includes(':init:')),
      ['live-preview:init:'],
      'the tab got its own answer, once',
    );

    await page.locator(`.wb-side [data-cslp="${CSLP}"]`).fill('AquaSense 60 in a tab');
    await tab.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent === 'AquaSense 60 in a tab',
      HEADLINE,
      {
        timeout: 10_000,
      },
    );
    t.pass('an edit reaches the tab too');
    t.same(errors, []);
  },
);

t.test(
  'preview-share mode: the frame carries preview_share, init is answered as a preview-share window, and the page mounts the builder UI',
  async (t) => {
    const { page, site, errors } = await openWorkbench(t, 'share');
    const url = new URL(site.url());
    t.equal(url.searchParams.get('preview_share'), 'true', 'a preview-share link');
    t.notOk(url.searchParams.has('builder'), 'not the builder');
    const inits = await page.locator('.wb-log tr[data-direction="out"][data-type="init"]').allTextContents();
    t.ok(
      inits.some((row) => row.includes('preview-share')),
      `init answered as a preview-share window (${inits.join(' | ').slice(0, 300)})`,
    );
    await site.waitForSelector('.visual-builder__container', { state: 'attached', timeout: 15_000 });
    t.pass('the builder UI is mounted on the shared preview');
    t.notOk(await page.locator('input[name="comments"]').isDisabled(), 'comments can be switched on');
    t.same(errors, []);
  },
);

t.test('a title edited in the form reaches the page without a reload; publish changes the plain page', async (t) => {
  const { page, site, errors } = await openWorkbench(t);
  const hash = hashes.at(-1) as string;
  t.equal(await site.textContent(HEADLINE), 'AquaSense 60');
  t.match(site.url(), `live_preview=${hash}`);
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === site) navigations++;
  });
  await site.evaluate(() => {
    window.marker = 'same document';
  });

  const input = page.locator(`.wb-side [data-cslp="${CSLP}"]`);
  t.equal(await input.inputValue(), 'AquaSense 60', 'the form shows the entry');
  await input.fill('AquaSense 60 Silence');
  await site.waitForFunction(
    (selector) => document.querySelector(selector)?.textContent === 'AquaSense 60 Silence',
    HEADLINE,
    {
      timeout: 10_000,
      polling: 50,
    },
  );
  t.equal(await site.evaluate(() => window.marker), 'same document', 'morphed, not reloaded');
  t.equal(navigations, 0, 'the frame never navigated');
  const sent = await page.$$eval('.wb-log tr[data-type="client-data-send"]', (rows) =>
    rows.map((row) => [row.getAttribute('data-direction'), row.querySelector('td:last-child')?.textContent]),
  );
  t.ok(
    sent.some(([direction, payload]) => direction === 'out' && payload === JSON.stringify({ hash })),
    'client-data-send with the draft hash is in the log',
  );
  t.match((await server.get('uk', DISHWASHER)).body, '>AquaSense 60<', 'visitors still see the published page');

  // Compare: the timeline channel marks the added word in the page.
  await page.click('button[name="compare"]');
  await site.waitForSelector(`${HEADLINE} cs-compare.cs-compare--added`, { timeout: 5_000 });
  t.match(await site.textContent(`${HEADLINE} cs-compare.cs-compare--added:last-of-type`), 'Silence');
  if (process.env.WORKBENCH_SCREENSHOT) await page.screenshot({ path: join(ROOT, process.env.WORKBENCH_SCREENSHOT) });
  await page.click('button[name="compare"]');
  await site.waitForFunction((selector) => !document.querySelector(`${selector} cs-compare`), HEADLINE);

  await page.click('button[name="publish"]');
  await page.waitForSelector('.wb-status:text-is("Published")', { timeout: 10_000 });
  const plain = await server.get('uk', DISHWASHER);
  t.equal(plain.status, 200);
  t.match(plain.body, '>AquaSense 60 Silence<', 'the plain page shows the published title');
  t.equal(JSON.parse(await readFile(TEMPLATE_FILE, 'utf8')).body_components[0].headline, 'AquaSense 60 Silence');
  t.same(errors, [], 'no script errors in the workbench');
});

t.test('builder mode with comments: a thread posted in the page is kept in the workbench thread store', async (t) => {
  const UI = '[data-testid="collab__container"]';
  const THREAD = `${UI} [data-testid="collab-thread"]`;
  const store = join(CONTENT_COPY, '_drafts', '_collab', 'en-GB', '4711.json');
  const { page, site, errors } = await openWorkbench(t, 'builder');
  // The layer registers its collaboration handlers before it sends send-variant-and-locale.
  await page.waitForSelector('.wb-log tr[data-direction="in"][data-type="send-variant-and-locale"]');
  await page.check('input[name="comments"]');
  await site.waitForSelector(UI, { state: 'attached', timeout: 10_000 });
  await site.click(HEADLINE, { position: { x: 10, y: 5 } });
  await site.waitForSelector(THREAD);
  const area = site.locator(`${THREAD} textarea`);
  await area.pressSequentially('Shorter, please @lou');
  await site.waitForSelector(`${UI} .collab-mentions li`);
  await area.press('Enter');
  await site.locator(`${THREAD} button`, { hasText: 'Post' }).click();
  await site.waitForSelector(`${THREAD} .collab-thread__title:text("1 Comment")`, { timeout: 5_000 });

  let saved: { threads: Record<string, unknown>[]; comments: Record<string, unknown>[] } | undefined;
  await until(
    async () => {
      saved = await readFile(store, 'utf8')
        .then((text) => JSON.parse(text))
        .catch(() => undefined);
      return saved?.comments?.length;
    },
    { what: 'the saved comment', every: 100 },
  ).catch(() => {});
  const id = saved?.threads[0]?._id as string;
  t.match(saved, {
    threads: [{ elementXPath: /^\/html\[1\]\/body\[1\]\/.+\]$/, pageRoute: DISHWASHER, createdBy: 'u-editor' }],
    comments: [
      { threadUid: id, message: 'Shorter, please {{u-legal}}', toUsers: ['u-legal'], author: 'editor@halden.example' },
    ],
  });
  t.equal(await site.getAttribute(`${UI} .collab-pin`, 'threaduid'), id, 'the pin carries the stored thread id');

  // Another tab: the init reply brings the stored thread, rendered as a pin once comments are on.
  const again = await openWorkbench(t, 'builder');
  await again.page.waitForSelector('.wb-log tr[data-direction="in"][data-type="send-variant-and-locale"]');
  await again.page.check('input[name="comments"]');
  await again.site.click(`${UI} .collab-pin[threaduid="${id}"]`, { timeout: 10_000 });
  await again.site.waitForSelector(`${THREAD} .collab-comment__message:text("Shorter, please @Lou Legal")`);
  t.same([...errors, ...again.errors], [], 'no script errors in the workbench');
});
