import { runInNewContext } from 'node:vm';
import t from 'tap';
import { serializeInlineJson } from './inline-json.ts';

/** What a script element's content must never contain, and what the escaped form must contain instead. */
t.test('JSON placed inside a script element cannot end or confuse it', async (t) => {
  const cases: [string, unknown, RegExp, string][] = [
    ['closing script tag', { text: '</script><script>alert(1)</script>' }, /<\/script/i, '\\u003c/script\\u003e'],
    ['closing script tag, mixed case', { text: '</ScRiPt>' }, /<\/script/i, '\\u003c/ScRiPt\\u003e'],
    ['HTML comment opener', { text: '<!-- hidden' }, /<!--/, '\\u003c!--'],
    ['HTML comment closer', { text: 'end -->' }, /-->/, '--\\u003e'],
    ['ampersand entity', { text: 'Kühl &amp; leise' }, /&/, '\\u0026amp;'],
    ['line separator U+2028', { text: 'a\u2028b' }, /\u2028/, '\\u2028'],
    ['paragraph separator U+2029', { text: 'a\u2029b' }, /\u2029/, '\\u2029'],
    ['markup in a key', { '<img src=x onerror=alert(1)>': 1 }, /</, '\\u003cimg'],
  ];
  for (const [label, value, forbidden, escaped] of cases) {
    const out = serializeInlineJson(value);
    t.notMatch(out, forbidden, `${label}: raw form absent`);
    t.ok(out.includes(escaped), `${label}: escaped as ${escaped}`);
    t.same(JSON.parse(out), value, `${label}: parses back to the same value`);
  }
});

t.test('any value round-trips through JSON.parse unchanged', async (t) => {
  const values: unknown[] = [
    null,
    true,
    0,
    -12.5,
    '',
    'plain',
    '</script>',
    ['<', '>', '&', '\u2028', '\u2029', '\\u003c'],
    { nested: { list: [1, 'two', { three: '<b>3</b>' }] }, unicode: 'Grüße – 日本' },
    { '@context': 'https://schema.org', '@type': 'BreadcrumbList', itemListElement: [] },
  ];
  // Labels are escaped too: a raw U+2028 in a test name would break the TAP stream.
  for (const value of values) t.same(JSON.parse(serializeInlineJson(value)), value, serializeInlineJson(value));
});

t.test('a literal backslash-u sequence in the data is not turned into markup', async (t) => {
  const value = { text: '\\u003c/script>' };
  const out = serializeInlineJson(value);
  t.notMatch(out, /<\/script/i);
  t.same(JSON.parse(out), value);
});

t.test('output is valid JavaScript that evaluates to the same value', async (t) => {
  const value = { text: 'a\u2028b</script>&' };
  const evaluated = runInNewContext(`(${serializeInlineJson(value)})`);
  t.same(evaluated, value);
});
