import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { ApplicationConfiguration, TemplateEntry } from '../../common/content.ts';
import { until } from '../../test/until.ts';
import { ContentError } from './service.ts';
import { createEmbeddedStore, type EmbeddedStore } from './store.ts';

const page = (uuid: string, fields: Record<string, unknown> = {}) => ({
  uid: `page-${uuid}`,
  uuid,
  locale: 'de-CH',
  title: `Page ${uuid}`,
  slug: 'kuehlschrank',
  template: [{ _content_type_uid: 'page_template', uid: 'home' }],
  url_taxonomy: [{ url_taxonomy_segments: [] }],
  ...fields,
});
const json = (value: unknown) => JSON.stringify(value, null, 2);

const template = {
  uid: 'home',
  header_components: [],
  body_components: [{ _content_type_uid: 'rich_text', uid: 'intro', text: '<p>Hallo</p>' }],
  footer_components: [],
};
const appConfig: ApplicationConfiguration = {
  globals: { dhfIsEnabled: true },
  navigation: { header: { title: 'Halden', links: [{ title: 'Küche', url: '/de/cs/kueche-200' }] } },
};
/** What a read outside the store would return: valid content, so only the path check can stop it. */
const SENTINEL_TITLE = 'SENTINEL outside the store';
const sentinelPage = json(page('1', { title: SENTINEL_TITLE }));
const sentinelConfig = json({
  globals: { dhfIsEnabled: true },
  navigation: { header: { title: SENTINEL_TITLE, links: [] } },
});

type Tree = { [name: string]: string | Tree };

function writeTree(dir: string, tree: Tree): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(tree)) {
    if (typeof value === 'string') writeFileSync(join(dir, name), value);
    else writeTree(join(dir, name), value);
  }
}

/**
 * A fixture: `{root}/content` is CONTENT_DIR; sentinels lie around it where traversal would land.
 * A fresh folder per test (not t.testdir), so parallel runs of this file cannot share one.
 */
function fixture(t: Test) {
  const root = mkdtempSync(join(tmpdir(), 'vitrine-store-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  writeTree(root, {
    'sentinel.json': sentinelPage,
    pages: { '1.json': sentinelPage },
    '_applicationConfiguration.json': sentinelConfig,
    'de-CH': { pages: { '1.json': sentinelPage } },
    content: {
      'de-CH': {
        '_applicationConfiguration.json': json(appConfig),
        pages: {
          '1.json': json(page('1')),
          '2.json': json(page('2')),
          'broken.json': '{',
          '3.json': '{ "uid": "page-3", ',
          '4.json': json(page('4', { slug: 'Not A Slug!' })),
          '5.json': '{"__proto__": {"polluted": "yes"}, "uid": "page-5"}',
          '6.json': '{"constructor": {"prototype": {"polluted": "yes"}}, "uid": "page-6"}',
        },
        page_template: {
          'home.json': json(template),
          'bad.json': json({ ...template, body_components: [{ _content_type_uid: 'rich_text', uid: 'x' }] }),
        },
      },
      _drafts: {
        hash123: { 'de-CH': { pages: { '1.json': json(page('1', { title: 'Draft title' })) } } },
        brokenhash: { 'de-CH': { pages: { '1.json': '{ nope' } } },
      },
    },
  });
  const dir = join(root, 'content');
  return { root, dir, write: (file: string, value: unknown) => writeFileSync(join(dir, file), json(value)) };
}

function storeFor(t: Test, dir: string, watch = false): EmbeddedStore {
  const store = createEmbeddedStore({ dir, watch });
  t.teardown(() => store.close());
  return store;
}

async function contentError(t: Test, promise: Promise<unknown>): Promise<ContentError | undefined> {
  try {
    await promise;
    t.fail('expected a ContentError');
    return undefined;
  } catch (error) {
    t.type(error, ContentError);
    return error as ContentError;
  }
}

t.test('reads a page, a template and the application configuration', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  const entry = await store.getPage('1', 'de-CH');
  t.equal(entry?.title, 'Page 1');
  t.equal(entry?.uuid, '1');
  const tpl = await store.getEntry<TemplateEntry>('page_template', 'home', 'de-CH');
  t.equal(tpl?.body_components[0]?.uid, 'intro');
  t.same(await store.getApplicationConfiguration('www.halden.ch', 'de-CH'), appConfig);
  t.equal(await store.hasPage('1', 'de-CH'), true);
});

t.test('a page that does not exist is null, not an error', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  t.equal(await store.getPage('999', 'de-CH'), null);
  t.equal(await store.getPage('1', 'fr-CH'), null, 'locale without content');
  t.equal(await store.getEntry('page_template', 'missing', 'de-CH'), null);
  t.equal(await store.hasPage('999', 'de-CH'), false);
  t.same(
    await store.getApplicationConfiguration('www.halden.ch', 'fr-CH'),
    { globals: { dhfIsEnabled: false }, navigation: {} },
    'a locale without configuration gets the empty one (no header)',
  );
});

t.test('malformed JSON is a CONTENT_INVALID error naming the file', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  const error = await contentError(t, store.getPage('3', 'de-CH'));
  t.equal(error?.code, 'CONTENT_INVALID');
  t.match(error?.where, 'de-CH/pages/3.json');
  t.notMatch(error?.where ?? '', dir, 'relative to the store, no absolute server path');
});

t.test('a malformed field takes its fallback and is reported with the file and the JSON path', async (t) => {
  const { dir } = fixture(t);
  const warnings: { where: string; path: string }[] = [];
  const store = createEmbeddedStore({ dir, logger: { warn: (details) => warnings.push(details as never) } });
  t.teardown(() => store.close());
  const fallback = await store.getPage('4', 'de-CH');
  t.equal(fallback?.slug, 'not-a-slug', 'the slug is made from the malformed one');
  t.match(warnings, [{ where: 'de-CH/pages/4.json', path: '$.slug' }]);

  const tpl = await store.getEntry<TemplateEntry>('page_template', 'bad', 'de-CH');
  t.same(
    tpl?.body_components.map((c) => c.uid),
    ['x'],
    'components are kept as read: their own fields are checked when the page is assembled',
  );
});

t.test('a page entry needs no uuid field: its id is the file name', async (t) => {
  const { dir, write } = fixture(t);
  const store = storeFor(t, dir);
  const { uuid: _, ...withoutUuid } = page('9');
  write('de-CH/pages/9.json', json(withoutUuid));
  t.equal((await store.getPage('9', 'de-CH'))?.uuid, '9');
  write('de-CH/pages/10.json', json(page('11')));
  t.equal((await store.getPage('10', 'de-CH'))?.uuid, '10', 'a uuid field that disagrees is ignored');
});

t.test('one broken file breaks only its own entry', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  await contentError(t, store.getPage('3', 'de-CH'));
  t.equal((await store.getPage('2', 'de-CH'))?.title, 'Page 2', 'another page still loads');
  t.equal(await store.hasPage('3', 'de-CH'), false, 'hasPage reports the broken page as absent');
});

t.test('a fixed file loads on the next read: failures are not cached', async (t) => {
  const { dir, write } = fixture(t);
  const store = storeFor(t, dir);
  await contentError(t, store.getPage('3', 'de-CH'));
  write('de-CH/pages/3.json', page('3'));
  t.equal((await store.getPage('3', 'de-CH'))?.title, 'Page 3');
});

t.test('__proto__ and constructor.prototype in content are refused and pollute nothing', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  for (const uuid of ['5', '6']) {
    const error = await contentError(t, store.getPage(uuid, 'de-CH'));
    t.equal(error?.code, 'CONTENT_INVALID', `page ${uuid}`);
    t.match(error?.where, `de-CH/pages/${uuid}.json`);
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype unchanged');
  t.notOk(Object.hasOwn(Object.prototype, 'polluted'));
});

t.test('request values cannot read outside the store', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  const pageCases: [string, string, string][] = [
    ['uuid ../x', '../x', 'de-CH'],
    ['uuid climbing to a sentinel', '../../../sentinel', 'de-CH'],
    ['uuid ..%2F', '..%2F..%2F..%2Fsentinel', 'de-CH'],
    ['locale ../../etc', '1', '../../etc'],
    ['locale .. (lands on {root}/pages/1.json)', '1', '..'],
    ['absolute uuid', join(dir, '..', 'sentinel'), 'de-CH'],
  ];
  for (const [label, uuid, locale] of pageCases) {
    t.equal(await store.getPage(uuid, locale), null, label);
  }
  const entryCases: [string, string, string, string][] = [
    ['type ..', '..', '../sentinel', 'de-CH'],
    ['type .. with a plain uid', '..', 'sentinel', 'de-CH'],
    ['uid with /', 'page_template', '../../../sentinel', 'de-CH'],
    ['uid with / inside the store', 'page_template', 'x/../home', 'de-CH'],
    ['absolute uid', 'page_template', join(dir, '..', 'sentinel'), 'de-CH'],
    ['pages as an entry type', 'pages', '1', 'de-CH'],
    ['locale ..', 'pages', '1', '..'],
  ];
  for (const [label, type, uid, locale] of entryCases) {
    t.equal(await store.getEntry(type, uid, locale), null, label);
  }
  const config = await store.getApplicationConfiguration('www.halden.ch', '..');
  t.not(
    config.navigation.header?.title,
    SENTINEL_TITLE,
    'locale .. does not reach {root}/_applicationConfiguration.json',
  );
  t.same(config, { globals: { dhfIsEnabled: false }, navigation: {} });

  // A preview hash that climbs out of _drafts lands on {root}/de-CH/pages/1.json if unchecked.
  const preview = await store.getPage('1', 'de-CH', '../..');
  t.equal(preview?.title, 'Page 1', 'a traversing preview hash reads the published page');
});

t.test('a second read is served from memory until a change is announced', async (t) => {
  const { dir, write } = fixture(t);
  const store = storeFor(t, dir);
  let notified = 0;
  store.changes.subscribe(() => notified++);
  store.changes.subscribe(() => notified++);

  t.equal((await store.getPage('1', 'de-CH'))?.title, 'Page 1');
  write('de-CH/pages/1.json', page('1', { title: 'Changed' }));
  t.equal((await store.getPage('1', 'de-CH'))?.title, 'Page 1', 'the change is not seen yet');
  t.equal(notified, 0);

  store.changes.announce({ origin: 'revalidate' });
  t.equal(notified, 2, 'every listener runs');
  t.equal((await store.getPage('1', 'de-CH'))?.title, 'Changed', 'the change is seen after the announcement');
});

t.test('a preview hash reads the draft over the published page', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  t.equal((await store.getPage('1', 'de-CH', 'hash123'))?.title, 'Draft title');
  t.equal((await store.getPage('1', 'de-CH'))?.title, 'Page 1', 'visitors still see the published page');
  t.equal((await store.getPage('2', 'de-CH', 'hash123'))?.title, 'Page 2', 'no draft: published page');
  t.equal((await store.getPage('1', 'de-CH', 'unknownhash'))?.title, 'Page 1', 'unknown hash: published page');
  t.equal(await store.getPage('999', 'de-CH', 'hash123'), null, 'neither draft nor page');
});

t.test('drafts are never cached', async (t) => {
  const { dir, write } = fixture(t);
  const store = storeFor(t, dir);
  t.equal((await store.getPage('1', 'de-CH', 'hash123'))?.title, 'Draft title');
  write('_drafts/hash123/de-CH/pages/1.json', page('1', { title: 'Draft edited' }));
  t.equal((await store.getPage('1', 'de-CH', 'hash123'))?.title, 'Draft edited', 'seen without a revalidate');
});

t.test('a preview hash of the wrong shape reads published content', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  for (const hash of ['../hash123', 'hash123/..', 'a.b', 'x'.repeat(200)]) {
    t.equal((await store.getPage('1', 'de-CH', hash))?.title, 'Page 1', JSON.stringify(hash));
  }
});

t.test('a broken draft is reported like a broken page', async (t) => {
  const { dir } = fixture(t);
  const store = storeFor(t, dir);
  const error = await contentError(t, store.getPage('1', 'de-CH', 'brokenhash'));
  t.match(error?.where, '_drafts/brokenhash/de-CH/pages/1.json');
});

t.test('with watch on, a changed file is seen without a revalidate', async (t) => {
  const { dir, write } = fixture(t);
  const store = storeFor(t, dir, true);
  let notified = 0;
  store.changes.subscribe((change) => {
    if (change.origin === 'watch') notified++;
  });
  t.equal((await store.getPage('1', 'de-CH'))?.title, 'Page 1');

  write('de-CH/pages/1.json', page('1', { title: 'Watched change' }));
  const seen = await until(
    async () => {
      const page = await store.getPage('1', 'de-CH');
      return page?.title === 'Watched change' && page;
    },
    { what: 'the watched change', timeout: 10_000 },
  );
  t.equal(seen.title, 'Watched change');
  t.ok(notified > 0, 'listeners ran');
});
