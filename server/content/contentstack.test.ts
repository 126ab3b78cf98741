import t, { type Test } from 'tap';
import { type FixtureStack, startFixtureStack } from '../../test/fixtures/contentstack-stack.ts';
import { type ContentstackOptions, createContentstackService } from './contentstack.ts';
import { ContentError } from './service.ts';

/**
 * The Contentstack source against a stack on the loopback interface that answers as the Delivery
 * and Preview API reference describes: what it asks (paths, headers, parameters) and what it makes
 * of the answers, faults included.
 */

const CREDENTIALS = {
  apiKey: 'blt-key',
  deliveryToken: 'cs-delivery',
  previewToken: 'cs-preview',
  environment: 'prod',
};
const INCLUDES = ['template', 'template.header_components', 'template.body_components', 'template.footer_components'];

async function stack(t: Test): Promise<FixtureStack> {
  const s = await startFixtureStack(CREDENTIALS);
  t.teardown(() => s.close());
  s.publish('hero', 'en-gb', { uid: 'hero-1', title: 'hero-1', headline: 'Quiet', image: undefined });
  s.publish('page_template', 'en-gb', {
    uid: 'tpl',
    title: 'tpl',
    header_components: [],
    body_components: [{ uid: 'hero-1', _content_type_uid: 'hero' }],
    footer_components: [],
  });
  s.publish('page', 'en-gb', {
    uid: 'blt-page',
    title: 'Dishwasher',
    uuid: '4711',
    slug: 'dishwasher',
    template: [{ uid: 'tpl', _content_type_uid: 'page_template' }],
  });
  return s;
}

function source(t: Test, s: FixtureStack, extra: Partial<ContentstackOptions> = {}) {
  const service = createContentstackService({
    apiKey: CREDENTIALS.apiKey,
    deliveryToken: CREDENTIALS.deliveryToken,
    environment: CREDENTIALS.environment,
    host: s.delivery,
    previewHost: s.preview,
    cacheTtlMs: 60_000,
    staleMs: 60_000,
    maxEntries: 100,
    ...extra,
  });
  t.teardown(() => service.close());
  return service;
}

t.test('a page is one Delivery API query by uuid with its template and components included', async (t) => {
  const s = await stack(t);
  const cs = source(t, s, { branch: 'main' });
  const page = await cs.getPage('4711', 'en-GB');
  t.match(page, { uuid: '4711', locale: 'en-GB', title: 'Dishwasher', template: [{ uid: 'tpl' }] });
  const template = await cs.getEntry<{ body_components: unknown[] }>('page_template', 'tpl', 'en-GB');
  t.match(template?.body_components, [{ _content_type_uid: 'hero', uid: 'hero-1', headline: 'Quiet' }]);
  t.equal(s.requests.length, 1, 'the template came with the page: no second request');
  const [request] = s.requests;
  t.equal(request?.api, 'delivery');
  t.equal(request?.path, '/v3/content_types/page/entries');
  t.same(request?.params.getAll('include[]'), INCLUDES);
  t.same(JSON.parse(request?.params.get('query') ?? ''), { uuid: '4711' });
  t.equal(request?.params.get('locale'), 'en-gb', 'the stack locale is the site locale in lower case');
  t.equal(request?.params.get('environment'), 'prod');
  t.match(request?.headers, { api_key: 'blt-key', access_token: 'cs-delivery', branch: 'main' });
  t.notOk(request?.headers.preview_token, 'the preview token never goes to the Delivery API');

  await cs.getPage('4711', 'en-GB');
  t.equal(s.requests.length, 1, 'published reads are cached');
});

t.test('a page the stack does not have is null, and input that cannot name a page never reaches it', async (t) => {
  const s = await stack(t);
  const cs = source(t, s);
  t.equal(await cs.getPage('999', 'en-GB'), null);
  t.equal(await cs.getPage('4711', 'de-CH'), null, 'no fallback for pages: a page of another locale is not this one');
  t.equal(await cs.getPage('1"}', 'en-GB'), null);
  t.equal(await cs.getEntry('hero', '../x', 'en-GB'), null);
  t.equal(s.requests.length, 2);
  t.equal(s.requests[1]?.params.get('include_fallback'), null);
});

t.test(
  'a single entry the stack answers 422/141 for is null; a template read alone includes its components',
  async (t) => {
    const s = await stack(t);
    const cs = source(t, s);
    t.equal(await cs.getEntry('hero', 'nope', 'en-GB'), null);
    t.match(await cs.getEntry('hero', 'hero-1', 'en-GB'), { headline: 'Quiet' });
    t.match(await cs.getEntry('page_template', 'tpl', 'en-GB'), { body_components: [{ headline: 'Quiet' }] });
    t.same(s.requests.at(-1)?.params.getAll('include[]'), [
      'header_components',
      'body_components',
      'footer_components',
    ]);
    t.equal(s.requests.at(-1)?.path, '/v3/content_types/page_template/entries/tpl');
  },
);

t.test('application configuration is the locale entry, or its fallback locale, or the defaults', async (t) => {
  const s = await stack(t);
  s.publish('application_configuration', 'en-gb', {
    uid: 'cfg',
    title: 'cfg',
    globals: { dhfIsEnabled: true },
    navigation: { header: { title: 'Halden', links: [{ title: 'Kitchen', url: '/cs/kitchen' }] } },
  });
  s.fallback('en-ie', 'en-gb');
  const cs = source(t, s);
  const uk = await cs.getApplicationConfiguration('www.halden.co.uk', 'en-GB');
  t.same(uk, {
    globals: { dhfIsEnabled: true },
    navigation: { header: { title: 'Halden', links: [{ title: 'Kitchen', url: '/cs/kitchen' }] } },
  });
  t.same(await cs.getApplicationConfiguration('www.halden.ie', 'en-IE'), uk, 'en-ie falls back to en-gb');
  t.same(await cs.getApplicationConfiguration('www.halden.de', 'de-DE'), {
    globals: { dhfIsEnabled: false },
    navigation: {},
  });
  const ie = s.requests[1];
  t.equal(ie?.path, '/v3/content_types/application_configuration/entries');
  t.equal(ie?.params.get('include_fallback'), 'true');
  t.equal(ie?.params.get('locale'), 'en-ie');
});

t.test('listing pages for the sitemap pages through skip and limit', async (t) => {
  const s = await stack(t);
  for (let i = 1; i <= 230; i++) s.publish('page', 'de-ch', { uid: `p${i}`, title: `P${i}`, uuid: String(i) });
  const cs = source(t, s);
  const ids = await cs.listPages?.('de-CH');
  t.equal(ids?.length, 230);
  t.same(ids?.slice(0, 3), ['1', '2', '3'], 'numeric order');
  t.same(
    s.requests.map((r) => [r.params.get('skip'), r.params.get('limit'), r.params.get('include_count')]),
    [
      ['0', '100', 'true'],
      ['100', '100', 'true'],
      ['200', '100', 'true'],
    ],
  );
  t.same(s.requests[0]?.params.getAll('only[BASE][]'), ['uuid'], 'only the uuid field is asked for');
});

t.test('a 5xx or a 429 is retried once; a second fault fails with the URL named', async (t) => {
  const s = await stack(t);
  const cs = source(t, s);
  s.failNext({ status: 503 });
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher' }, 'the retry succeeded');
  t.equal(s.requests.length, 2);

  s.failNext({ status: 429, headers: { 'retry-after': '1' } }, { status: 429, headers: { 'retry-after': '1' } });
  const error = await cs.getPage('125', 'en-GB').catch((e: unknown) => e);
  t.ok(error instanceof ContentError);
  t.equal((error as ContentError).code, 'CONTENT_UPSTREAM');
  t.match((error as ContentError).where, `${s.delivery}/v3/content_types/page/entries?`);
  t.match((error as Error).message, /429/);
});

t.test('a refused token is a fault, not an empty page', async (t) => {
  const s = await stack(t);
  const cs = source(t, s, { deliveryToken: 'wrong' });
  await t.rejects(cs.getPage('4711', 'en-GB'), { code: 'CONTENT_UPSTREAM', message: /412/ });
  t.equal(s.requests.length, 1, 'a 412 is not retried');
});

t.test('hasPage treats a stack fault as absent, and logs it', async (t) => {
  const s = await stack(t);
  const warnings: object[] = [];
  const cs = source(t, s, { deliveryToken: 'wrong', logger: { warn: (details) => warnings.push(details) } });
  t.equal(await cs.hasPage('4711', 'en-GB'), false);
  t.match(warnings, [{ uuid: '4711', locale: 'en-GB', err: { code: 'CONTENT_UPSTREAM' } }]);
});

t.test('garbage and foreign envelopes are upstream faults and are not cached', async (t) => {
  const s = await stack(t);
  const cs = source(t, s);
  s.failNext({ garbage: '<html>Bad gateway</html>' });
  await t.rejects(cs.getPage('4711', 'en-GB'), { code: 'CONTENT_UPSTREAM', message: /not valid JSON/ });
  t.equal(s.requests.length, 1, 'a garbage body is not retried');
  s.failNext({ status: 200, body: { entries: 'none' } });
  await t.rejects(cs.getPage('4711', 'en-GB'), { code: 'CONTENT_UPSTREAM', message: /lacks an entries list/ });
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher' }, 'the next read asks again');
});

t.test('after a good read, a failing stack serves the last good value', async (t) => {
  const s = await stack(t);
  const warnings: string[] = [];
  let now = 1_000;
  const cs = source(t, s, {
    cacheTtlMs: 20,
    staleMs: 0,
    logger: { warn: (_d, message) => warnings.push(message) },
    now: () => now,
  });
  await cs.getPage('4711', 'en-GB');
  now += 40; // past the 20 ms lifetime (±10 %)
  s.failNext({ status: 500 }, { status: 500 });
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher' });
  t.ok(warnings.includes('Content upstream failed; serving the last good value'));
});

t.test('a change on the hub clears the cache first: the next read sees the stack as it is now', async (t) => {
  const s = await stack(t);
  const cs = source(t, s);
  await cs.getPage('4711', 'en-GB');
  s.publish('page', 'en-gb', { ...s.entry('page', 'en-gb', 'blt-page'), title: 'Dishwasher, quieter' });
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher' }, 'cached until told');
  cs.changes.announce({ origin: 'webhook', entries: [{ type: 'page', uid: 'blt-page', locale: 'en-GB' }] });
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher, quieter' });
});

t.test('live preview reads the draft from the Preview API with the hash, every time', async (t) => {
  const s = await stack(t);
  s.draft('hash1', 'page', 'en-gb', { ...s.entry('page', 'en-gb', 'blt-page'), title: 'Draft title' });
  s.draft('hash1', 'hero', 'en-gb', { uid: 'hero-1', title: 'hero-1', headline: 'Draft headline' });
  const cs = source(t, s, { previewToken: CREDENTIALS.previewToken });
  t.match(await cs.getPage('4711', 'en-GB', 'hash1'), { title: 'Draft title' });
  const template = await cs.getEntry<{ body_components: unknown[] }>('page_template', 'tpl', 'en-GB', 'hash1');
  t.match(template?.body_components, [{ headline: 'Draft headline' }], 'the components are the draft too');
  t.equal(s.requests.length, 1, 'one request for page, template and components');
  const [request] = s.requests;
  t.equal(request?.api, 'preview');
  t.match(request?.headers, { api_key: 'blt-key', preview_token: 'cs-preview', live_preview: 'hash1' });
  t.notOk(request?.headers.access_token, 'the delivery token never goes to the Preview API');
  t.same(request?.params.getAll('include[]'), INCLUDES);

  await cs.getPage('4711', 'en-GB', 'hash1');
  t.equal(s.requests.length, 2, 'never cached: the same hash shows newer drafts');
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher' }, 'published readers never see the draft');
  await cs.getEntry('page_template', 'tpl', 'en-GB', 'hash1');
  await cs.getEntry('page_template', 'tpl', 'en-GB', 'hash1');
  t.equal(
    s.requests.filter((r) => r.api === 'preview').length,
    3,
    'a handed-over template is taken once, then asked for',
  );
  t.equal(s.requests.at(-1)?.path, '/v3/content_types/page_template/entries/tpl');
});

t.test('without a preview token, previews show published content and the log says so once', async (t) => {
  const s = await stack(t);
  s.draft('hash1', 'page', 'en-gb', { ...s.entry('page', 'en-gb', 'blt-page'), title: 'Draft title' });
  const warnings: string[] = [];
  const cs = source(t, s, { logger: { warn: (_d, message) => warnings.push(message) } });
  t.match(await cs.getPage('4711', 'en-GB', 'hash1'), { title: 'Dishwasher' });
  await cs.getPage('125', 'en-GB', 'hash2');
  t.same(warnings, ['Live preview without CONTENTSTACK_PREVIEW_TOKEN: previews show published content']);
  t.ok(
    s.requests.every((r) => r.api === 'delivery' && !r.headers.live_preview),
    'nothing went to the Preview API',
  );
});

t.test('after a 429 with Retry-After the stack is left alone until then; the last good value serves', async (t) => {
  const s = await stack(t);
  let now = 1_000;
  const cs = source(t, s, { cacheTtlMs: 20, staleMs: 0, now: () => now });
  await cs.getPage('4711', 'en-GB');
  const limited = { status: 429, headers: { 'retry-after': '30' }, body: { error_message: 'Rate limit exceeded' } };
  s.failNext(limited, limited);
  await t.rejects(cs.getPage('125', 'en-GB'), { code: 'CONTENT_UPSTREAM', message: /429/ });
  const asked = s.requests.length;
  await t.rejects(cs.getPage('200', 'en-GB'), {
    code: 'CONTENT_UPSTREAM',
    message: /asked to wait until .*Retry-After/,
  });
  now += 40; // past the 20 ms lifetime (±10 %)
  t.match(await cs.getPage('4711', 'en-GB'), { title: 'Dishwasher' }, 'the expired page is served from the cache');
  t.equal(s.requests.length, asked, 'no request while the stack asked to wait');
});
