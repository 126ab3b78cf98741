import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readContent, writeExport } from '../../scripts/export-contentstack.ts';
import { stackCredentials, startFixtureStack } from '../fixtures/contentstack-stack.ts';
import { startEditorSuite } from './editor.ts';
import { ROOT } from './server.ts';

/**
 * Live preview against a stack, without the workbench: the built server reads content from a local
 * Contentstack stack (the demo imported from the stack export), the editor frames a page with a
 * `live_preview` hash, and the page shows the draft the Preview API holds for that hash. A
 * `client-data-send` with the next hash morphs in the next draft.
 */

const CREDENTIALS = stackCredentials('e2e', 'preview');
const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const HEADLINE = '[data-cslp="page_template.dishwasher.en-GB.body_components.0.headline"]';

const dir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-stack-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
writeExport(dir, readContent(join(ROOT, 'content')));
const stack = await startFixtureStack(CREDENTIALS);
t.teardown(() => stack.close());
stack.importExport(dir);

/** Draft `hash`: the dishwasher page and its hero as an editor left them. */
function draft(hash: string, title: string, headline: string) {
  stack.draft(hash, 'page', 'en-gb', { ...stack.entry('page', 'en-gb', 'page-4711'), title });
  stack.draft(hash, 'hero', 'en-gb', { ...stack.entry('hero', 'en-gb', 'hero-dishwasher'), headline });
}
draft('hashone', 'AquaSense 60, first draft', 'AquaSense 60 Draft');
draft('hashtwo', 'AquaSense 60, second draft', 'AquaSense 60 Next');

Object.assign(process.env, {
  CONTENTSTACK_API_KEY: CREDENTIALS.apiKey,
  CONTENTSTACK_DELIVERY_TOKEN: CREDENTIALS.deliveryToken,
  CONTENTSTACK_ENVIRONMENT: CREDENTIALS.environment,
  CONTENTSTACK_PREVIEW_TOKEN: CREDENTIALS.previewToken,
  CONTENTSTACK_HOST: stack.delivery,
  CONTENTSTACK_PREVIEW_HOST: stack.preview,
});
const editor = await startEditorSuite(t, {
  script: `record(channels.lp, 'init', () => ({ contentTypeUid: 'page', entryUid: 'page-4711', windowType: 'preview' }));`,
});

t.test('the page opened with a hash shows the Preview API draft; client-data-send morphs in the next', async (t) => {
  const url = editor.server.url('uk', `${DISHWASHER}?live_preview=hashone&content_type_uid=page&entry_uid=page-4711`);
  const { page, site } = await editor.open(t, url);
  t.equal(await site.title(), 'AquaSense 60, first draft | Halden', 'the draft title');
  t.equal(await site.textContent(HEADLINE), 'AquaSense 60 Draft', 'the draft component');
  const first = stack.requests.filter((r) => r.headers.live_preview === 'hashone');
  t.ok(first.length > 0 && first.every((r) => r.api === 'preview'), 'the hash went to the Preview API only');

  await site.evaluate(() => {
    (window as { marker?: string }).marker = 'same document';
  });
  await page.evaluate(() => window.channels.lp.send('client-data-send', { hash: 'hashtwo' }));
  await site.waitForFunction(
    (selector) => document.querySelector(selector)?.textContent === 'AquaSense 60 Next',
    HEADLINE,
    { timeout: 10_000, polling: 50 },
  );
  t.equal(await site.evaluate(() => (window as { marker?: string }).marker), 'same document', 'morphed, not reloaded');
  t.ok(
    stack.requests.some((r) => r.api === 'preview' && r.headers.live_preview === 'hashtwo'),
    'the next hash was read from the Preview API',
  );
  t.notOk(
    stack.requests.some((r) => r.api === 'delivery' && r.headers.live_preview),
    'the Delivery API never saw a hash',
  );
});
