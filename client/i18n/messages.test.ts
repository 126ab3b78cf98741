import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createMessageCatalog } from './messages.ts';

/** On-demand loading, caching, fallback chain locale → fallback → key, and retry after a failure. */
function setup(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-locales-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'en-GB.json'),
    JSON.stringify({
      hello: 'Hello {name}',
      only: 'Only in English',
      count: '{n, plural, one {# item} other {# items}}',
    }),
  );
  writeFileSync(
    join(dir, 'de-CH.json'),
    JSON.stringify({ hello: 'Grüezi {name}', count: '{n, plural, one {# Artikel} other {# Artikel}}' }),
  );
  const errors: { obj: object; msg: string }[] = [];
  const catalog = createMessageCatalog({
    dir,
    fallbackLocale: 'en-GB',
    log: { error: (obj, msg) => errors.push({ obj, msg }) },
  });
  return { dir, catalog, errors };
}

t.test('messages format with ICU arguments in the locale, then the fallback locale, then the key', async (t) => {
  const { catalog } = setup(t);
  const translate = await catalog.translator('de-CH');
  t.equal(translate('hello', { name: 'Anna' }), 'Grüezi Anna');
  t.equal(translate('only'), 'Only in English', 'missing key → fallback locale');
  t.equal(translate('nowhere'), 'nowhere', 'missing everywhere → the key');
  t.equal(translate('count', { n: 1 }), '1 Artikel');
});

t.test('a locale file that fails to load is logged, falls back, and is retried by a later request', async (t) => {
  const { dir, catalog, errors } = setup(t);
  const first = await catalog.translator('fr-CH');
  t.equal(first('hello', { name: 'Anna' }), 'Hello Anna', 'renders with the fallback messages');
  t.equal(errors[0]?.msg, 'Failed locale loading');
  writeFileSync(join(dir, 'fr-CH.json'), JSON.stringify({ hello: 'Bonjour {name}' }));
  const later = await catalog.translator('fr-CH');
  t.equal(later('hello', { name: 'Anna' }), 'Bonjour Anna', 'a later request loads the now-present file');
});

t.test('a broken locale file is handled like a missing one', async (t) => {
  const { dir, catalog, errors } = setup(t);
  writeFileSync(join(dir, 'it-CH.json'), '{ not json');
  const translate = await catalog.translator('it-CH');
  t.equal(translate('hello', { name: 'x' }), 'Hello x');
  t.equal(errors.length, 1);
});

t.test('a locale is read once and cached', async (t) => {
  const { dir, catalog } = setup(t);
  await catalog.translator('de-CH');
  writeFileSync(join(dir, 'de-CH.json'), JSON.stringify({ hello: 'changed' }));
  const again = await catalog.translator('de-CH');
  t.equal(again('hello', { name: 'Anna' }), 'Grüezi Anna');
});
