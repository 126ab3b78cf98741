import t from 'tap';
import { checkQuery, MAX_PATH_LENGTH, normalizeEscapes, parsePath } from './path.ts';

t.test('well-formed paths become decoded segments', async (t) => {
  const rows: [string, string[]][] = [
    ['/', []],
    ['/de', ['de']],
    ['/de/', ['de']],
    ['/de/cs/x-1///', ['de', 'cs', 'x-1']],
    ['/de/cs/k%C3%BCche-1', ['de', 'cs', 'küche-1']],
    ['/de/cs/a%20b', ['de', 'cs', 'a b']],
    ['/de/cs/...', ['de', 'cs', '...']],
    ["/de/cs/a:b@c!$&'()*+,;=", ['de', 'cs', "a:b@c!$&'()*+,;="]],
  ];
  for (const [raw, segments] of rows) {
    const parsed = parsePath(raw);
    t.ok(parsed.ok, raw);
    if (!parsed.ok) continue;
    t.strictSame(parsed.segments, segments, `${raw} segments`);
    t.equal(parsed.path, `/${segments.join('/')}`, `${raw} path`);
  }
  const parsed = parsePath('/de/cs/k%C3%BCche-1/');
  t.strictSame(parsed.ok && parsed.rawSegments, ['de', 'cs', 'k%C3%BCche-1'], 'raw segments keep their encoding');
});

t.test('bad input is a 400, 404 or 414 answer, never an exception: 400 only when it cannot be decoded', async (t) => {
  const rows: [string, string, number][] = [
    ['percent-encoding cut short', '/de/cs/%E0%A4%A-1', 400],
    ['percent sign without hex', '/de/cs/%zz-1', 400],
    ['percent sign at the end', '/de/cs/x-1%', 400],
    ['invalid UTF-8', '/de/cs/%C3%28-1', 400],
    ['encoded NUL', '/de/cs/x%00-1', 404],
    ['raw NUL', '/de/cs/x\u0000-1', 404],
    ['encoded control character', '/de/cs/x%0A-1', 404],
    ['raw dot-dot segment', '/de/cs/../x-1', 404],
    ['raw dot segment', '/de/./cs/x-1', 404],
    ['encoded dot-dot segment', '/de/cs/%2e%2e/x-1', 404],
    ['half-encoded dot-dot segment', '/de/cs/.%2E/x-1', 404],
    ['encoded slash in a segment', '/de/cs/a%2Fb-1', 404],
    ['encoded backslash in a segment', '/de/cs/a%5Cb-1', 404],
    ['raw backslash', '/\\evil.example/', 404],
    ['double slash inside', '/de//cs/x-1', 404],
    ['double slash at the start', '//evil.example/', 404],
    ['only slashes', '//', 404],
    ['raw non-ASCII', '/de/cs/küche-1', 404],
    ['raw space', '/de/cs/a b-1', 404],
    ['raw quote and angle brackets', '/de/cs/"<x>"-1', 404],
    ['raw hash', '/de/cs/x-1#top', 404],
    ['no leading slash', 'de/cs/x-1', 400],
    ['empty', '', 400],
    ['10 KB path', `/de/cs/${'a'.repeat(10_240)}-1`, 414],
    ['one over the limit', `/${'a'.repeat(MAX_PATH_LENGTH)}`, 414],
  ];
  for (const [name, raw, status] of rows) {
    let parsed: ReturnType<typeof parsePath> | undefined;
    t.doesNotThrow(() => {
      parsed = parsePath(raw);
    }, name);
    t.match(parsed, { ok: false, status }, name);
  }
  t.ok(parsePath(`/${'a'.repeat(MAX_PATH_LENGTH - 1)}`).ok, 'a path at the limit is fine');
});

t.test('query strings', async (t) => {
  const rows: [string, number | null][] = [
    ['', null],
    ['?a=b', null],
    ['?next=//evil.example&x=javascript:alert(1)', null],
    ['?a=%zz', null],
    ['a=b', 400],
    ['?a=b c', 400],
    ['?a=\r\nSet-Cookie:x=y', 400],
    ['?a=\u0000', 400],
    ['?q=küche', 400],
    [`?q=${'a'.repeat(10_240)}`, 414],
  ];
  for (const [query, status] of rows) {
    const result = checkQuery(query);
    if (status === null) t.equal(result, null, JSON.stringify(query));
    else t.match(result, { ok: false, status }, JSON.stringify(query.slice(0, 40)));
  }
});

t.test('percent-encoding has one spelling: unreserved escapes decoded, the rest upper-case', async (t) => {
  const table: [string, string][] = [
    ['/cs/dish%77asher-1', '/cs/dishwasher-1'],
    ['/cs/a%2Db%2ec%5Fd%7Ee-1', '/cs/a-b.c_d~e-1'],
    ['/cs/k%c3%bcche-1', '/cs/k%C3%BCche-1'],
    ['/cs/a%2fb', '/cs/a%2Fb'],
    ['/cs/a%20b', '/cs/a%20b'],
    ['/cs/100%25', '/cs/100%25'],
    ['/already/canonical-1', '/already/canonical-1'],
    ['/cs/%41%5A%30', '/cs/AZ0'],
    ['/cs/%2e%2e/x-1', '/cs/%2e%2e/x-1'],
    ['/cs/%2e/x-1', '/cs/%2e/x-1'],
    ['/cs/a%2eb-1', '/cs/a.b-1'],
  ];
  for (const [input, expected] of table) t.equal(normalizeEscapes(input), expected, input);
});
