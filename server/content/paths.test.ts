import { join, resolve, sep } from 'node:path';
import t from 'tap';
import { type ContentKey, contentFile, draftRoot, isValidKey, isValidPreviewHash } from './paths.ts';

const ROOT = resolve('/srv/content');

t.test('well-formed keys map to their file inside the store', async (t) => {
  const cases: [string, ContentKey, string][] = [
    ['a page', { kind: 'page', locale: 'de-CH', uuid: '4711' }, 'de-CH/pages/4711.json'],
    ['the largest page id', { kind: 'page', locale: 'de-CH', uuid: '1234567890' }, 'de-CH/pages/1234567890.json'],
    [
      'a template',
      { kind: 'entry', locale: 'fr-CH', contentType: 'page_template', uid: 'home' },
      'fr-CH/page_template/home.json',
    ],
    [
      'a component with dashes and underscores',
      { kind: 'entry', locale: 'en-GB', contentType: 'rich_text', uid: 'blt-1_a' },
      'en-GB/rich_text/blt-1_a.json',
    ],
    ['the application configuration', { kind: 'appConfig', locale: 'it-CH' }, 'it-CH/_applicationConfiguration.json'],
  ];
  for (const [label, key, file] of cases) {
    t.equal(contentFile(ROOT, key), join(ROOT, file), label);
    t.ok(isValidKey(key), `${label}: valid`);
  }
});

t.test('request values that could leave the store never become a path', async (t) => {
  const cases: [string, ContentKey][] = [
    ['uuid ../x', { kind: 'page', locale: 'de-CH', uuid: '../x' }],
    ['uuid ..%2F', { kind: 'page', locale: 'de-CH', uuid: '..%2F..%2Fetc' }],
    ['uuid with digits and traversal', { kind: 'page', locale: 'de-CH', uuid: '1/../../2' }],
    ['uuid with 11 digits', { kind: 'page', locale: 'de-CH', uuid: '12345678901' }],
    ['empty uuid', { kind: 'page', locale: 'de-CH', uuid: '' }],
    ['uuid with a trailing newline', { kind: 'page', locale: 'de-CH', uuid: '1\n' }],
    ['locale ../../etc', { kind: 'page', locale: '../../etc', uuid: '1' }],
    ['locale ..', { kind: 'appConfig', locale: '..' }],
    ['locale in lower case', { kind: 'page', locale: 'de-ch', uuid: '1' }],
    ['type ..', { kind: 'entry', locale: 'de-CH', contentType: '..', uid: 'x' }],
    ['type with a slash', { kind: 'entry', locale: 'de-CH', contentType: 'a/b', uid: 'x' }],
    ['type pages (the page folder)', { kind: 'entry', locale: 'de-CH', contentType: 'pages', uid: '125' }],
    ['uid with /', { kind: 'entry', locale: 'de-CH', contentType: 'page_template', uid: 'a/b' }],
    ['uid ..', { kind: 'entry', locale: 'de-CH', contentType: 'page_template', uid: '..' }],
    ['uid with backslash', { kind: 'entry', locale: 'de-CH', contentType: 'page_template', uid: 'a\\..\\b' }],
    ['absolute uid', { kind: 'entry', locale: 'de-CH', contentType: 'page_template', uid: '/etc/passwd' }],
    ['absolute locale', { kind: 'appConfig', locale: '/etc' }],
    ['NUL byte in uid', { kind: 'entry', locale: 'de-CH', contentType: 'page_template', uid: 'a\0b' }],
  ];
  for (const [label, key] of cases) {
    t.equal(contentFile(ROOT, key), null, label);
    t.notOk(isValidKey(key), `${label}: invalid`);
  }
});

t.test('every file resolved stays below the root', async (t) => {
  const file = contentFile(ROOT, { kind: 'page', locale: 'de-CH', uuid: '1' });
  t.ok(file?.startsWith(ROOT + sep));
  t.equal(
    contentFile('relative/store', { kind: 'page', locale: 'de-CH', uuid: '1' }),
    resolve('relative/store/de-CH/pages/1.json'),
  );
});

t.test('preview hashes name a folder under _drafts, or nothing', async (t) => {
  t.equal(draftRoot(ROOT, 'abc_DEF-123'), join(ROOT, '_drafts', 'abc_DEF-123'));
  const bad = ['', '..', '../..', 'a/b', '/abs', 'a.b', 'x'.repeat(129), 'a%2Fb', 'a b'];
  for (const hash of bad) {
    t.equal(draftRoot(ROOT, hash), null, `hash ${JSON.stringify(hash)}`);
    t.notOk(isValidPreviewHash(hash));
  }
  t.ok(isValidPreviewHash('x'.repeat(128)), 'the longest hash is accepted');
});
