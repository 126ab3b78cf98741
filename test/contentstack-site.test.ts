import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readContent, writeExport } from '../scripts/export-contentstack.ts';
import type { ContentChange } from '../server/content/changes.ts';
import { createContentstackService } from '../server/content/contentstack.ts';
import { stackCredentials, startFixtureStack } from './fixtures/contentstack-stack.ts';
import { demoServer, HOSTS } from './helpers.ts';

/**
 * The demo, exported in the stack import format and loaded into a local stack, served through the
 * Contentstack source: every page of a storefront is the page the embedded store gives, and a
 * publish webhook refreshes a page. Proves the export, the content model and the source together.
 */

const CREDENTIALS = stackCredentials('demo', 'production');
const SECRET = 'webhook-secret-for-tests-0123';

const dir = mkdtempSync(join(tmpdir(), 'vitrine-stack-export-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
writeExport(dir, readContent('content'));
const stack = await startFixtureStack(CREDENTIALS);
t.teardown(() => stack.close());
stack.importExport(dir);

const content = createContentstackService({
  apiKey: CREDENTIALS.apiKey,
  deliveryToken: CREDENTIALS.deliveryToken,
  environment: CREDENTIALS.environment,
  host: stack.delivery,
  previewHost: stack.preview,
  cacheTtlMs: 60_000,
  staleMs: 60_000,
  maxEntries: 20_000,
});
t.teardown(() => content.close());
const embedded = await demoServer();
t.teardown(() => embedded.close());
const app = await demoServer({ content, webhookSecret: SECRET });
t.teardown(() => app.close());

const get = (server: typeof app, host: string, url: string) => server.inject({ url, headers: { host } });
/** A page's HTML without the parts that differ per response (CSP nonces). */
const comparable = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

t.test('the sitemap through the stack lists the pages the embedded store lists', async (t) => {
  const [own, viaStack] = await Promise.all([
    get(embedded, HOSTS.uk, '/sitemap.xml'),
    get(app, HOSTS.uk, '/sitemap.xml'),
  ]);
  t.equal(viaStack.statusCode, 200);
  t.equal(viaStack.body, own.body);
});

t.test('every page of the UK storefront is the same page through the stack as from the store', async (t) => {
  const sitemap = (await get(embedded, HOSTS.uk, '/sitemap.xml')).body;
  const paths = [...sitemap.matchAll(/<loc>https:\/\/www\.halden\.co\.uk([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
  t.ok(paths.length >= 9, `${paths.length} pages`);
  for (const path of paths) {
    const [own, viaStack] = await Promise.all([get(embedded, HOSTS.uk, path), get(app, HOSTS.uk, path)]);
    t.equal(viaStack.statusCode, 200, `${path} is served`);
    t.equal(comparable(viaStack.body), comparable(own.body), `${path} is the same page`);
  }
});

t.test('a multilingual storefront: the French page of the Swiss store comes from the fr-ch locale', async (t) => {
  const own = await get(embedded, HOSTS.ch, '/fr');
  const viaStack = await get(app, HOSTS.ch, '/fr');
  t.equal(viaStack.statusCode, 200);
  t.equal(comparable(viaStack.body), comparable(own.body));
  t.ok(stack.requests.some((r) => r.params.get('locale') === 'fr-ch'));
});

const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const titleOf = async () => /<title>([^<]*)<\/title>/.exec((await get(app, HOSTS.uk, DISHWASHER)).body)?.[1];
const webhook = (body: unknown, authorization: string | null = `Bearer ${SECRET}`) =>
  app.inject({
    method: 'POST',
    url: '/cs/api/_webhook/contentstack',
    headers: {
      host: 'hooks.example.net',
      'content-type': 'application/json',
      ...(authorization ? { authorization } : {}),
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
const publishEvent = (event: string, module = 'entry') => ({
  event,
  module,
  api_key: CREDENTIALS.apiKey,
  data: { entry: { uid: 'page-4711', locale: 'en-gb', title: 'x' }, content_type: { uid: 'page' } },
});

t.test('a publish webhook refreshes the page within a second', async (t) => {
  t.equal(await titleOf(), 'AquaSense 60 dishwasher | Halden', 'the page is rendered and cached');
  const page = stack.entry('page', 'en-gb', 'page-4711');
  stack.publish('page', 'en-gb', { ...page, title: 'AquaSense 60 Silence' });
  t.equal(await titleOf(), 'AquaSense 60 dishwasher | Halden', 'cached until the stack says otherwise');

  const changes: ContentChange[] = [];
  t.teardown(content.changes.subscribe((change) => changes.push(change)));
  const res = await webhook(publishEvent('publish'));
  t.equal(res.statusCode, 200);
  // The very next request is fresh: nothing waits for a poll, so a second is ample on any machine
  // (a bound on wall time would only measure how busy the machine is).
  t.equal(await titleOf(), 'AquaSense 60 Silence | Halden', 'fresh on the first request after the webhook');
  t.same(changes, [{ origin: 'webhook', entries: [{ type: 'page', uid: 'page-4711', locale: 'en-GB' }] }]);
});

t.test('unpublish and delete webhooks clear too: an unpublished page is gone', async (t) => {
  const page = stack.entry('page', 'en-gb', 'page-4711') ?? {};
  t.teardown(() => stack.publish('page', 'en-gb', page));
  stack.unpublish('page', 'en-gb', 'page-4711');
  t.equal((await webhook(publishEvent('unpublish'))).statusCode, 200);
  t.equal((await get(app, HOSTS.uk, DISHWASHER)).statusCode, 404);
  t.equal((await webhook(publishEvent('delete'))).statusCode, 200);
});

t.test('anything else is refused and changes nothing', async (t) => {
  const changes: ContentChange[] = [];
  t.teardown(content.changes.subscribe((change) => changes.push(change)));
  const cases: [string, unknown, string | null, number][] = [
    ['no Authorization', publishEvent('publish'), null, 401],
    ['a wrong secret', publishEvent('publish'), 'Bearer not-the-secret-at-all', 401],
    ['the secret without Bearer', publishEvent('publish'), SECRET, 401],
    ['a draft save (update)', publishEvent('update'), null, 400],
    ['an asset event', publishEvent('publish', 'asset'), null, 400],
    ['no entry uid', { event: 'publish', module: 'entry', data: { content_type: { uid: 'page' } } }, null, 400],
    ['a body that is not JSON', '{"event":', null, 400],
    ['a JSON list', [], null, 400],
  ];
  for (const [name, body, authorization, status] of cases) {
    const res = await webhook(body, status === 401 ? authorization : `Bearer ${SECRET}`);
    t.equal(res.statusCode, status, name);
    t.notMatch(res.body, /at .*\.ts:\d+/, `${name}: no stack trace`);
  }
  t.same(changes, [], 'no change was announced');
});

t.test('a preview request shows the draft behind its hash everywhere on the page, and is never cached', async (t) => {
  const preview = createContentstackService({
    apiKey: CREDENTIALS.apiKey,
    deliveryToken: CREDENTIALS.deliveryToken,
    environment: CREDENTIALS.environment,
    previewToken: CREDENTIALS.previewToken,
    host: stack.delivery,
    previewHost: stack.preview,
    cacheTtlMs: 60_000,
    staleMs: 60_000,
    maxEntries: 20_000,
  });
  t.teardown(() => preview.close());
  const site = await demoServer({ content: preview });
  t.teardown(() => site.close());
  const features = stack.entry('product_feature_list', 'en-gb', 'features-dishwasher') ?? {};
  const withFootnote = (text: string) => ({
    ...features,
    pricingFootnotesContainer: { pricingFootnotes: [{ code: 'RRP', formattedFootnote: text }] },
  });
  stack.draft('draft1', 'page', 'en-gb', { ...stack.entry('page', 'en-gb', 'page-4711'), title: 'Dishwasher draft' });
  stack.draft('draft1', 'product_feature_list', 'en-gb', withFootnote('Draft price note'));
  const url = `/cs/kitchen/aquasense-60-dishwasher-4711?live_preview=draft1&content_type_uid=page&entry_uid=page-4711`;
  const first = await get(site, HOSTS.uk, url);
  t.equal(first.statusCode, 200);
  t.match(first.body, '<title>Dishwasher draft | Halden</title>', 'the draft title');
  t.match(first.body, 'Draft price note', 'the footnote from the draft component');
  t.match(first.headers['cache-control'], /no-store/);

  stack.draft('draft1', 'product_feature_list', 'en-gb', withFootnote('Later price note'));
  t.match((await get(site, HOSTS.uk, url)).body, 'Later price note', 'the same hash shows the newer draft');
  const published = await get(site, HOSTS.uk, '/cs/kitchen/aquasense-60-dishwasher-4711');
  t.notMatch(published.body, /Draft price note|Later price note|Dishwasher draft/, 'visitors never see drafts');
});
