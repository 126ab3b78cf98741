import t from 'tap';
import { encodingEtag, etagMatches } from './page-reply.ts';

t.test('each encoding of a page has its own validator', async (t) => {
  t.equal(encodingEtag('"abc"', 'identity'), '"abc"');
  t.equal(encodingEtag('"abc"', 'br'), '"abc-br"');
  t.equal(encodingEtag('"abc"', 'gzip'), '"abc-gzip"');
});

t.test('If-None-Match: lists, weak tags and * match; others do not', async (t) => {
  const table: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x","abc"', true],
    ['*', true],
    ['"abc-br"', false],
    ['"ab"', false],
  ];
  for (const [header, expected] of table) t.equal(etagMatches(header, '"abc"'), expected, String(header));
});
