import t from 'tap';
import { createMessageCatalog } from '../../client/i18n/messages.ts';
import { type PageConfig, PREVIEW_TEXT_KEYS } from '../../common/preview-page-config.ts';
import { TEXTS } from '../../sdk/builder/text.ts';
import { demoServer, HOSTS, testAssets } from '../../test/helpers.ts';
import type { PreviewConfig } from './config.ts';
import { previewCsp, previewMessages, previewScript } from './page.ts';

/**
 * What a preview response adds: the layer's script and its JSON config, a CSP
 * that lets only the editor frame it, no caching; plain pages carry none of it.
 */

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const SCRIPT = '/assets/sdk/preview-test.js';
const preview: PreviewConfig = {
  apiKey: 'blt-key',
  environment: 'preview',
  branch: '',
  editorOrigins: ['https://app.contentstack.com', 'http://127.0.0.1:4100'],
  ssr: false,
  draftToken: undefined,
};
const app = await demoServer({ assets: { ...testAssets, previewScript: SCRIPT }, preview, htmlCache: false });
t.teardown(() => app.close());
const get = (url: string) => app.inject({ url, headers: { host: HOSTS.uk } });

t.test('a preview request gets the script, its configuration, editor-only framing and no caching', async (t) => {
  const res = await get(`${DISHWASHER}?live_preview=h1&content_type_uid=page&entry_uid=4711`);
  t.equal(res.statusCode, 200);
  t.match(res.body, `<script src="${SCRIPT}" defer="">`);
  const config = /<script type="application\/json" id="vitrine-preview-config">([^<]*)<\/script>/.exec(res.body);
  t.ok(config, 'the configuration is a JSON data block, not inline code');
  t.same(JSON.parse(config?.[1] ?? 'null'), {
    init: {
      ssr: false,
      mode: 'preview',
      stackDetails: { apiKey: 'blt-key', environment: 'preview', branch: '' },
      clientUrlParams: { protocol: 'https', host: 'app.contentstack.com', port: 443 },
      editorOrigins: ['https://app.contentstack.com', 'http://127.0.0.1:4100'],
      // An English page brings the layer's own English (4.4.1's words).
      messages: TEXTS,
    },
  });
  const csp = res.headers['content-security-policy'] as string;
  t.match(csp, /(^|;)frame-ancestors https:\/\/app\.contentstack\.com http:\/\/127\.0\.0\.1:4100$/);
  t.notMatch(csp, /frame-ancestors 'self'/);
  t.match(csp, /script-src 'self'/, 'the rest of the policy stays');
  t.equal(res.headers['x-frame-options'], undefined, 'no X-Frame-Options contradicting the CSP');
  t.equal(
    res.headers['cross-origin-opener-policy'],
    'unsafe-none',
    'an editor that opened it in a new tab stays its opener',
  );
  t.equal(res.headers['cache-control'], 'private, no-store');
});

t.test('the live route is a preview response too', async (t) => {
  const res = await get('/cs/live?entry_uid=4711');
  t.equal(res.statusCode, 200);
  t.equal(res.headers['x-robots-tag'], 'noindex', 'never indexed');
  t.match(res.body, SCRIPT);
  t.match(res.headers['content-security-policy'], /frame-ancestors https:\/\/app\.contentstack\.com/);
  t.equal(res.headers['cache-control'], 'private, no-store');
});

t.test(
  'the live route renders the entry the editor names, in the minimal layout; an unknown entry is a 404',
  async (t) => {
    // [url, status, heading the page shows]: page ids and CMS uids both name a page.
    const table: [string, number, RegExp | null][] = [
      ['/cs/live?entry_uid=4711', 200, /<h1[^>]*>AquaSense 60/],
      ['/cs/live?entry_uid=page-4711', 200, /<h1[^>]*>AquaSense 60/],
      ['/cs/live?entry_uid=page-125', 200, null],
      ['/cs/live', 200, null],
      ['/cs/live/4711', 200, /<h1[^>]*>AquaSense 60/],
      ['/cs/live?entry_uid=page-999999', 404, null],
      ['/cs/live?entry_uid=999999', 404, null],
      ['/cs/live?entry_uid=blt0123456789abcdef', 404, null],
      ['/cs/live/kitchen', 404, null],
    ];
    for (const [url, status, heading] of table) {
      const res = await get(url);
      t.equal(res.statusCode, status, url);
      if (status === 200) t.match(res.body, 'data-layout="minimal"', `${url}: minimal layout`);
      if (heading) t.match(res.body, heading, `${url}: the entry's page`);
      if (status === 404) t.notMatch(res.body, /<h1[^>]*>AquaSense/, `${url}: never another page`);
    }
  },
);

t.test('plain pages and invalid hashes carry no preview bytes and frame only themselves', async (t) => {
  for (const url of [DISHWASHER, `${DISHWASHER}?live_preview=not/a/hash`]) {
    const res = await get(url);
    t.notMatch(res.body, /preview|cslp/i, url);
    t.match(res.headers['content-security-policy'], /frame-ancestors 'self'/, url);
  }
});

t.test('previewCsp replaces frame-ancestors wherever it stands and keeps every other directive', async (t) => {
  t.equal(
    previewCsp("default-src 'self';frame-ancestors 'self';script-src 'self'", ['https://a.example']),
    "default-src 'self';script-src 'self';frame-ancestors https://a.example",
  );
  t.equal(
    previewCsp('', ['https://a.example', 'https://b.example']),
    'frame-ancestors https://a.example https://b.example',
  );
});

t.test('the configuration names the editor and this storefront’s workbench origin, no other storefront', async (t) => {
  const config: PreviewConfig = {
    ...preview,
    editorOrigins: [
      'https://app.contentstack.com',
      'http://www.halden.co.uk:3000',
      'http://www.halden.ch:3000',
      'http://uk.localhost:3000',
    ],
  };
  const script = previewScript(config, '/sdk/preview.js', {
    hosts: ['www.halden.co.uk', 'uk.localhost'],
    storefrontHosts: new Set(['www.halden.co.uk', 'uk.localhost', 'www.halden.ch', 'ch.localhost']),
  });
  t.same((script.config as PageConfig).init.editorOrigins, [
    'https://app.contentstack.com',
    'http://www.halden.co.uk:3000',
    'http://uk.localhost:3000',
  ]);
});

t.test('the builder’s texts come in the page’s language, their arguments left for the layer', async (t) => {
  const catalog = createMessageCatalog({ dir: 'locales', fallbackLocale: 'en-GB', log: { error: () => undefined } });
  const messages = previewMessages(await catalog.translator('de-CH'));
  t.equal(messages.referencedFrom, 'Verwiesen von {field} in {contentType}');
  t.equal(messages.moreApps, 'Weitere Apps');
  t.equal(
    messages.stageLocked,
    'Sie haben im Workflow-Schritt „{stage}“ keinen Bearbeitungszugriff auf diesen Eintrag',
  );
  t.equal(messages.restoreSorted, 'Ursprüngliche Reihenfolge wiederherstellen');
  t.same(Object.keys(messages), [...PREVIEW_TEXT_KEYS], 'every text the layer reads');
  for (const code of ['en-GB', 'en-US', 'en-IE'])
    t.same(previewMessages(await catalog.translator(code)), TEXTS, `${code} says 4.4.1’s words, ICU quoting undone`);
});
