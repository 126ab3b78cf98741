import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { demoServer, HOSTS, previewWithDrafts, testAssets } from '../../test/helpers.ts';
import { entryProblem } from '../content/entry-checks.ts';
import { writeAtomically } from '../content/write-atomically.ts';
import type { PreviewConfig } from '../preview/config.ts';
import { fieldSchemaMap } from '../workbench/field-schema.ts';
import { type WorkbenchDeps, withWorkbenchOrigins, workbenchRoutes } from './workbench.ts';

/**
 * The workbench's server side: off unless asked for, its API behind the draft token, the editor
 * origins it adds, the field schemas it derives, and publishing (validated, atomic, cache dropped).
 */

const TOKEN = 'workbench-token-0123456789';
const DISHWASHER = '/cs/kitchen/aquasense-60-dishwasher-4711';
const contentDir = await mkdtemp(join(tmpdir(), 'vitrine-workbench-'));
await cp('content', contentDir, { recursive: true });
const preview: PreviewConfig = { ...previewWithDrafts(TOKEN), ssr: false };
const app = await demoServer({
  contentDir,
  preview,
  assets: { ...testAssets, previewScript: '/assets/sdk/preview-test.js' },
  workbench: { port: 3000 },
});
t.teardown(async () => {
  await app.close();
  await rm(contentDir, { recursive: true, force: true });
});
const auth = { authorization: `Bearer ${TOKEN}` };
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = auth) =>
  app.inject({
    method,
    url,
    headers: { host: HOSTS.uk, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

t.test('without the option, or without a draft token, there is no workbench', async (t) => {
  for (const options of [{}, { workbench: { port: 3000 }, preview: { ...preview, draftToken: undefined } }]) {
    const plain = await demoServer(options);
    t.teardown(() => plain.close());
    for (const url of ['/__workbench', '/__workbench/api/catalog']) {
      const res = await plain.inject({ url, headers: { host: HOSTS.uk, ...auth } });
      t.equal(res.statusCode, 404, url);
    }
  }
});

t.test('the page is served without content; every API call needs the draft token', async (t) => {
  const page = await inject('GET', '/__workbench', undefined, {});
  t.equal(page.statusCode, 200);
  t.match(page.body, '<script src="/__workbench/workbench.js" defer>');
  t.equal(page.headers['cache-control'], 'no-store');
  t.match(page.headers['content-security-policy'], /script-src 'self'/);
  t.equal(
    page.headers['cross-origin-opener-policy'],
    'same-origin-allow-popups',
    'it stays the opener of a preview tab',
  );
  for (const [method, url] of [
    ['GET', '/__workbench/api/catalog'],
    ['GET', '/__workbench/api/entries?locale=en-GB&uuid=4711'],
    ['GET', '/__workbench/api/field-schema/hero'],
    ['POST', '/__workbench/api/publish'],
  ] as const) {
    for (const authorization of ['', 'Bearer nope']) {
      const res = await inject(method, url, method === 'POST' ? {} : undefined, { authorization });
      t.equal(res.statusCode, 401, `${method} ${url} "${authorization}"`);
    }
  }
});

t.test('catalog: storefronts, and the pages of each locale of this one with their paths', async (t) => {
  const res = await inject('GET', '/__workbench/api/catalog');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.current, HOSTS.uk);
  t.ok(body.storefronts.some((s: { host: string }) => s.host === HOSTS.ch));
  t.match(body.pages['en-GB'], [{ uuid: '125' }]);
  t.ok(
    body.pages['en-GB'].some((p: { uuid: string; path: string }) => p.uuid === '4711' && p.path === DISHWASHER),
    'the dishwasher page with its canonical path',
  );
});

t.test('entries: page and template, with the draft of a hash overlaid', async (t) => {
  const template = JSON.parse(await readFile('content/en-GB/page_template/dishwasher.json', 'utf8'));
  template.body_components[0].headline = 'Drafted headline';
  const put = await inject(
    'PUT',
    '/cs/api/contentstack/_drafts/wb-entries-0001/en-GB/page_template/dishwasher',
    template,
  );
  t.equal(put.statusCode, 201);
  const res = await inject('GET', '/__workbench/api/entries?locale=en-GB&uuid=4711&hash=wb-entries-0001');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.page.uuid, '4711');
  t.equal(body.path, DISHWASHER);
  t.equal(body.template.type, 'page_template');
  t.equal(body.template.entry.body_components[0].headline, 'Drafted headline');
  const published = await inject('GET', '/__workbench/api/entries?locale=en-GB&uuid=4711');
  t.equal(published.json().template.entry.body_components[0].headline, 'AquaSense 60');
  for (const query of ['locale=de-CH&uuid=4711', 'locale=en-GB&uuid=../x', 'locale=en-GB&uuid=4711&hash=a/b']) {
    t.equal((await inject('GET', `/__workbench/api/entries?${query}`)).statusCode, 400, query);
  }
  t.equal((await inject('GET', '/__workbench/api/entries?locale=en-GB&uuid=99999')).statusCode, 404);
  const drafts = await inject('GET', '/__workbench/api/drafts?locale=en-GB');
  t.ok(drafts.json().hashes.includes('wb-entries-0001'), 'the compare view can pick the draft');
  t.same((await inject('GET', '/__workbench/api/drafts?locale=de-DE')).statusCode, 400);
});

t.test('preview responses let the workbench origins frame them and talk to the layer', async (t) => {
  const res = await inject('GET', `${DISHWASHER}?live_preview=wbx&content_type_uid=page&entry_uid=4711`);
  t.match(
    res.headers['content-security-policy'],
    /frame-ancestors https:\/\/app\.contentstack\.com .*http:\/\/uk\.localhost:3000/,
  );
  t.match(res.body, '"http://uk.localhost:3000"');
  const origins = withWorkbenchOrigins(
    preview,
    { sites: [{ host: 'a.example', aliases: ['a.localhost'], url: 'https://a.example' }] } as never,
    8080,
  ).editorOrigins;
  t.same(origins, [
    'https://app.contentstack.com',
    'http://a.example:8080',
    'http://a.localhost:8080',
    'http://localhost:8080',
    'http://127.0.0.1:8080',
    'https://a.example',
  ]);
});

t.test('field schemas come from the content schemas, paths without indexes', async (t) => {
  const hero = fieldSchemaMap('hero');
  t.match(hero?.headline, { uid: 'headline', display_name: 'Headline', data_type: 'text', mandatory: true });
  t.match(hero?.subline, { data_type: 'text', mandatory: false });
  t.match(hero?.['image.width'], { data_type: 'number' });
  const template = fieldSchemaMap('page_template');
  t.match(template?.body_components, { data_type: 'blocks', multiple: true });
  t.match(template?.layout, { data_type: 'text', enum: { choices: [{ value: 'default' }, { value: 'minimal' }] } });
  t.match(template?.['body_components.image.url'], { data_type: 'text', mandatory: true });
  t.match(template?.['body_components.headline'], { data_type: 'text' });
  t.match(template?.['body_components.productFeatures'], { data_type: 'group', multiple: true });
  t.match(fieldSchemaMap('pages')?.['seo.meta_description'], { data_type: 'text', display_name: 'Meta description' });
  t.equal(fieldSchemaMap('nope'), null);
  const res = await inject('GET', '/__workbench/api/field-schema/page_template');
  t.equal(res.statusCode, 200);
  t.ok(res.json().fieldSchemaMap['body_components.headline']);
  t.equal((await inject('GET', '/__workbench/api/field-schema/nope')).statusCode, 404);
});

t.test('publish: validated, written atomically through the path door, cache dropped, draft removed', async (t) => {
  const before = await inject('GET', DISHWASHER);
  t.match(before.body, 'AquaSense 60');
  const template = JSON.parse(await readFile('content/en-GB/page_template/dishwasher.json', 'utf8'));
  template.body_components[0].headline = 'Published from the workbench';
  t.equal(
    (await inject('PUT', '/cs/api/contentstack/_drafts/wb-publish-0001/en-GB/page_template/dishwasher', template))
      .statusCode,
    201,
  );
  const res = await inject('POST', '/__workbench/api/publish', {
    hash: 'wb-publish-0001',
    locale: 'en-GB',
    type: 'page_template',
    id: 'dishwasher',
  });
  t.equal(res.statusCode, 200, res.body);
  t.same(res.json(), { published: join('en-GB', 'page_template', 'dishwasher.json') });
  const file = JSON.parse(await readFile(join(contentDir, 'en-GB/page_template/dishwasher.json'), 'utf8'));
  t.equal(file.body_components[0].headline, 'Published from the workbench');
  t.notOk(
    await stat(join(contentDir, '_drafts/wb-publish-0001/en-GB/page_template/dishwasher.json')).catch(() => null),
  );
  t.same(
    (await readdir(join(contentDir, 'en-GB/page_template'))).filter((n) => n.endsWith('.tmp')),
    [],
    'no temporary file is left',
  );
  const after = await inject('GET', DISHWASHER);
  t.match(after.body, 'Published from the workbench', 'the plain page changed: the store cache was dropped');

  const again = await inject('POST', '/__workbench/api/publish', {
    hash: 'wb-publish-0001',
    locale: 'en-GB',
    type: 'page_template',
    id: 'dishwasher',
  });
  t.equal(again.statusCode, 404, 'a published draft is gone');
  for (const body of [
    {},
    { hash: 'x', locale: 'en-GB', type: 'pages', id: '../4711' },
    { hash: '../x', locale: 'en-GB', type: 'pages', id: '4711' },
    { hash: 'x', locale: 'en-GB', type: 'pages', id: { uid: '4711' } },
    { hash: 'x', locale: 'en-GB', type: 'pages' },
  ]) {
    t.equal((await inject('POST', '/__workbench/api/publish', body)).statusCode, 400, JSON.stringify(body));
  }
  const missing = await inject('POST', '/__workbench/api/publish', { hash: 'x', locale: 'en-GB' });
  t.match(missing.json(), { error: 'hash, locale, type and id are required strings' }, 'the schema names the rule');
});

t.test('publish refuses a draft that fails its schema and leaves the published file alone', async (t) => {
  const broken = join(contentDir, '_drafts/wbbad/en-GB/pages/4711.json');
  const page = JSON.parse(await readFile('content/en-GB/pages/4711.json', 'utf8'));
  await writeAtomically(broken, JSON.stringify({ ...page, slug: 'Not A Slug' }));
  const published = await readFile(join(contentDir, 'en-GB/pages/4711.json'), 'utf8');
  const publish = () =>
    inject('POST', '/__workbench/api/publish', { hash: 'wbbad', locale: 'en-GB', type: 'pages', id: '4711' });
  const res = await publish();
  t.equal(res.statusCode, 400);
  t.match(res.json(), { error: /^Invalid content: \$\.slug/, path: '$.slug', code: 'CONTENT_INVALID' });
  t.equal(await readFile(join(contentDir, 'en-GB/pages/4711.json'), 'utf8'), published);
  await writeAtomically(broken, '{"__proto__": {"x": 1}}');
  const poisoned = await publish();
  t.equal(poisoned.statusCode, 400);
  t.equal(poisoned.json().code, 'JSON_INVALID');
  t.match(entryProblem('pages', '4712', 'en-GB', page), { path: '$.uuid', message: /Expected 4712/ });
  t.match(entryProblem('pages', '4711', 'de-DE', page), { path: '$.locale', message: /Expected de-DE/ });
  t.equal(entryProblem('pages', '4711', 'en-GB', page), null);
});

t.test('the bundle is served (built, or bundled from source)', async (t) => {
  const res = await inject('GET', '/__workbench/workbench.js', undefined, {});
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /javascript/);
  t.match(res.body, 'contentstack-adv-post-message');
});

t.test('collaboration threads are kept per page in a JSON file under the draft area', async (t) => {
  const url = '/__workbench/api/collab?locale=en-GB&uuid=4711';
  t.same((await inject('GET', url)).json(), { threads: [], comments: [] }, 'none yet');
  const state = {
    threads: [{ _id: 't1', threadState: 1 }],
    comments: [{ _id: 'c1', threadUid: 't1', message: 'Hi {{u-legal}}' }],
  };
  t.equal((await inject('PUT', url, state)).statusCode, 204);
  t.same((await inject('GET', url)).json(), state);
  const file = join(contentDir, '_drafts', '_collab', 'en-GB', '4711.json');
  t.equal(file, join(contentDir, '_drafts', '_collab', 'en-GB', '4711.json'));
  t.same(JSON.parse(await readFile(file, 'utf8')), state);
  for (const body of [[], { threads: [] }, { threads: [1], comments: [] }]) {
    t.equal((await inject('PUT', url, body)).statusCode, 400, JSON.stringify(body));
  }
  for (const query of ['locale=de-CH&uuid=4711', 'locale=en-GB&uuid=../../x', 'locale=en-GB']) {
    t.equal((await inject('GET', `/__workbench/api/collab?${query}`)).statusCode, 400, query);
  }
  t.equal((await inject('PUT', url, state, { authorization: 'Bearer nope' })).statusCode, 401);
  const page = await inject('GET', `${DISHWASHER}?live_preview=_collab`);
  t.equal(page.statusCode, 200, 'the file is no draft overlay of the _collab hash');
});

/** The workbench's routes alone on a bare Fastify: no sites, no store, the test's token and `deps`. */
async function bareWorkbench(t: Test, deps: Partial<WorkbenchDeps>) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(workbenchRoutes, {
    sites: { sites: [] } as never,
    contentDir,
    store: {} as never,
    token: TOKEN,
    ...deps,
  });
  return app;
}

t.test("with Vite's middleware (development) the page loads the workbench's source as a module", async (t) => {
  const dev = await bareWorkbench(t, { fromSource: true });
  const page = await dev.inject({ url: '/__workbench' });
  t.match(page.body, '<script type="module" src="/assets/workbench/main.ts"></script>');
  t.notMatch(page.body, '/__workbench/workbench.js');
});

t.test('without a build, the bundle is made from source', async (t) => {
  const bare = await bareWorkbench(t, { bundleDir: join(contentDir, 'no-build-here') });
  const res = await bare.inject({ url: '/__workbench/workbench.js' });
  t.equal(res.statusCode, 200);
  t.match(res.body, 'contentstack-adv-post-message');
  t.match(res.body, '/__workbench/api/catalog');
});
