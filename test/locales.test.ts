import { readdirSync, readFileSync } from 'node:fs';
import { IntlMessageFormat } from 'intl-messageformat';
import t from 'tap';
import { intlLocale, SUPPORTED_LOCALES } from '../common/locales.ts';

/**
 * Every locale has exactly the source locale's keys, every message is valid ICU and
 * formats with sample arguments, and country variants keep their spelling rules.
 */
const SOURCE = 'en-GB';
const read = (code: string) => JSON.parse(readFileSync(`locales/${code}.json`, 'utf8')) as Record<string, string>;
const source = read(SOURCE);
const SAMPLE_ARGS = {
  brand: 'Halden',
  count: 3,
  index: 2,
  path: '/x',
  language: 'Deutsch',
  price: '€ 899',
  status: 'in_stock',
  name: 'AquaSense 60',
  year: 2026,
  field: 'Featured page',
  contentType: 'Landing page',
  stage: 'Legal review',
  max: 5,
};

t.test('there is one message file per supported locale and no other', async (t) => {
  const files = readdirSync('locales')
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));
  t.same(files.sort(), [...SUPPORTED_LOCALES].sort());
});

for (const code of SUPPORTED_LOCALES) {
  t.test(`${code} messages are complete and valid ICU`, async (t) => {
    const messages = read(code);
    t.same(
      Object.keys(source).filter((k) => !(k in messages)),
      [],
      'no key of the source locale is missing',
    );
    t.same(
      Object.keys(messages).filter((k) => !(k in source)),
      [],
      'no extra key',
    );
    for (const [key, pattern] of Object.entries(messages)) {
      let formatted = '';
      t.doesNotThrow(() => {
        formatted = String(new IntlMessageFormat(pattern, intlLocale(code)).format(SAMPLE_ARGS));
      }, `${code} ${key} parses and formats`);
      t.not(formatted.trim(), '', `${code} ${key} is not empty`);
    }
    for (const [key, pattern] of Object.entries(source)) {
      const placeholders = [...pattern.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]);
      for (const name of placeholders) t.match(messages[key], `{${name}`, `${code} ${key} keeps {${name}}`);
    }
    if (code !== SOURCE && !code.startsWith('en-')) {
      const same = Object.keys(source).filter((k) => messages[k] === source[k] && /[a-z]{4}/.test(source[k] ?? ''));
      t.ok(same.length <= 2, `${code} is translated, not an English copy (identical: ${same.join(', ')})`);
    }
  });
}

t.test('Swiss German writes ss, never ß', async (t) => {
  t.notMatch(JSON.stringify(read('de-CH')), /ß/);
  t.notMatch(readFileSync('content-src/de-CH.json', 'utf8'), /ß/);
});

t.test('US English uses US spelling where British differs', async (t) => {
  const us = `${JSON.stringify(read('en-US'))}${readFileSync('content-src/en-US.json', 'utf8')}`;
  for (const british of ['colour', 'centre', 'litres', 'favourite', 'organise'])
    t.notMatch(us, new RegExp(british), `no "${british}"`);
});

t.test('plural messages choose the right form per language', async (t) => {
  const format = (code: string, count: number) =>
    String(new IntlMessageFormat(read(code)['legal.noteCount'] as string, intlLocale(code)).format({ count }));
  t.equal(format('en-GB', 1), '1 note');
  t.equal(format('en-GB', 5), '5 notes');
  t.not(format('pl-PL', 2), format('pl-PL', 5), 'Polish few and many differ');
  t.not(format('de-DE', 1), format('de-DE', 2), 'German one and other differ');
});
