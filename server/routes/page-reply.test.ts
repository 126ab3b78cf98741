import t from 'tap';
import { etagMatches, preferredEncoding } from './page-reply.ts';

t.test(
  "a cached page's encoding is the client's best-weighted of brotli and gzip, brotli at equal weight, else none",
  async (t) => {
    const table: [string | undefined, string][] = [
      [undefined, 'identity'],
      ['', 'identity'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, br;q=0.9', 'gzip'],
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['deflate', 'identity'],
      ['identity', 'identity'],
      ['*', 'br'],
    ];
    // Twice: the second answers come from what the first worked out.
    for (let pass = 0; pass < 2; pass++)
      for (const [header, expected] of table) t.equal(preferredEncoding(header), expected, String(header));
  },
);

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
