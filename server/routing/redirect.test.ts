import type { FastifyReply } from 'fastify';
import t from 'tap';
import { buildLocation, buildPathLocation, isAllowedRedirectStatus, isDoorLocation, sendRedirect } from './redirect.ts';
import { multilingualSite } from './site-fixtures.ts';

const site = multilingualSite();

/** A Location a browser resolves on the site's own host, never protocol-relative. */
function isSameSite(location: string): boolean {
  return (
    location.startsWith('/') &&
    !location.startsWith('//') &&
    !location.startsWith('/\\') &&
    new URL(location, site.url).host === site.host
  );
}

t.test('a path target with slash tricks never yields a protocol-relative Location', async (t) => {
  const rows: [string, string][] = [
    ['//evil.example/', '/evil.example/'],
    ['///evil.example/', '/evil.example/'],
    ['/\\evil.example/', '/evil.example/'],
    ['\\\\evil.example/', '/evil.example/'],
    ['/\\/evil.example/', '/evil.example/'],
    ['/%2F%2Fevil.example/', '/%2F%2Fevil.example/'],
    ['/%5Cevil.example/', '/%5Cevil.example/'],
    ['/de//evil.example/', '/de/evil.example/'],
    ['/de//evil.example/?next=//evil.example', '/de/evil.example/?next=//evil.example'],
    ['/\t/evil.example', '/evil.example'],
    ['/\n/evil.example', '/evil.example'],
    [' //evil.example', '/evil.example'],
    ['/a/..//evil.example', '/evil.example'],
    ['/./\\evil.example', '/evil.example'],
    ['/%2e%2e//evil.example', '/evil.example'],
    ['/.//evil.example?x#y', '/evil.example?x#y'],
  ];
  for (const [target, expected] of rows) {
    const location = buildPathLocation(target);
    t.equal(location, expected, JSON.stringify(target));
    t.ok(location !== null && isSameSite(location), `${JSON.stringify(target)} stays on the site`);
  }
});

t.test('a target that a browser reads as another host leaves the host: refused unless external', async (t) => {
  const rows: [string, string | null, string | null][] = [
    // target, without external, with external
    ['//evil.example/', null, 'https://evil.example/'],
    ['///evil.example/', null, 'https://evil.example/'],
    ['/\\evil.example/', null, 'https://evil.example/'],
    ['\\\\evil.example/', null, 'https://evil.example/'],
    ['/\\/evil.example/', null, 'https://evil.example/'],
    [' //evil.example', null, 'https://evil.example/'],
    ['/\t/evil.example', null, 'https://evil.example/'],
    ['/\n/evil.example', null, 'https://evil.example/'],
    ['//www.halden.ch/it?x=1', '/it?x=1', '/it?x=1'],
    ['//ch.localhost/fr', '/fr', '/fr'],
    ['/a/..//evil.example', '/evil.example', '/evil.example'],
    ['/de//evil.example/', '/de/evil.example/', '/de/evil.example/'],
  ];
  for (const [target, plain, external] of rows) {
    t.equal(buildLocation(site, target), plain, `${JSON.stringify(target)} without external`);
    t.equal(buildLocation(site, target, { external: true }), external, `${JSON.stringify(target)} external`);
  }
});

t.test('schemes other than http(s) are refused', async (t) => {
  const rows = [
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    '\u0000javascript:alert(1)',
    '\u0001 javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'DATA:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    ' VbScript:msgbox(1)',
    'file:///etc/passwd',
    'mailto:a@b.example',
    'ftp://www.halden.ch/x',
    'jav&#x09;ascript:alert(1)',
  ];
  for (const target of rows) {
    t.equal(buildLocation(site, target), null, JSON.stringify(target));
    t.equal(buildLocation(site, target, { external: true }), null, `${JSON.stringify(target)} even when external`);
  }
});

t.test('hosts: the site and its aliases are same-site, others need external', async (t) => {
  const rows: [string, { external?: boolean } | undefined, string | null][] = [
    ['https://www.halden.ch/de/cs/x-1?a=b', undefined, '/de/cs/x-1?a=b'],
    ['HTTPS://WWW.HALDEN.CH/de', undefined, '/de'],
    ['http://ch.localhost/fr', undefined, '/fr'],
    ['https://www.halden.ch.//x', undefined, '/x'],
    ['https://www.halden.ch//evil.example', undefined, '/evil.example'],
    ['https://evil.example/', undefined, null],
    ['https://evil.example/', { external: false }, null],
    ['https://www.halden.ch.evil.example/', undefined, null],
    ['https://www.halden.ch@evil.example/', undefined, null],
    ['http:evil.example', undefined, null],
    ['https:\\\\evil.example', undefined, null],
    ['https://evil.example/', { external: true }, 'https://evil.example/'],
    ['https://shop.example/a b?c=<d>', { external: true }, 'https://shop.example/a%20b?c=%3Cd%3E'],
  ];
  for (const [target, opts, expected] of rows) {
    t.equal(buildLocation(site, target, opts), expected, `${target} ${JSON.stringify(opts ?? {})}`);
  }
});

t.test('relative references and junk are refused', async (t) => {
  const rows = ['evil.example/x', 'x-1', '?a=b', '#top', '', '   ', '/a\u0000b', '/a\u007fb'];
  for (const target of rows) t.equal(buildLocation(site, target), null, JSON.stringify(target));
  t.equal(buildLocation(site, 42 as unknown as string), null, 'a non-string');
});

t.test('same-site paths are encoded into a legal header value', async (t) => {
  const rows: [string, string][] = [
    ['/de/cs/küche-1', '/de/cs/k%C3%BCche-1'],
    ['/de/cs/a b-1?q=a b', '/de/cs/a%20b-1?q=a%20b'],
    ['/de?x="<>"', '/de?x=%22%3C%3E%22'],
  ];
  for (const [target, expected] of rows) t.equal(buildLocation(site, target), expected, target);
});

t.test('buildPathLocation takes paths only', async (t) => {
  t.equal(buildPathLocation('//evil.example/x?y'), '/evil.example/x?y');
  t.equal(buildPathLocation('https://evil.example/'), null);
  t.equal(buildPathLocation('javascript:alert(1)'), null);
});

t.test('redirect statuses', async (t) => {
  const rows: [unknown, boolean][] = [
    [301, true],
    [302, true],
    [307, true],
    [308, true],
    [300, false],
    [303, false],
    [200, false],
    [404, false],
    ['301', false],
    [undefined, false],
  ];
  for (const [status, allowed] of rows) t.equal(isAllowedRedirectStatus(status), allowed, String(status));
});

t.test('sendRedirect answers only a Location the door built', async (t) => {
  const rows: [string, boolean][] = [
    ['/de/cs/x-1', true],
    ['/de/cs/x-1?a=1#b', true],
    ['https://shop.example/x', true],
    ['//evil.example/~', false],
    ['/\\evil.example/A', false],
    ['\\\\evil.example', false],
    ['/./evil', false],
    ['/a/\tb', false],
    ['https://shop.example/a b', false],
    ['javascript:alert(1)', false],
    ['evil.example/x', false],
    ['', false],
  ];
  for (const [location, built] of rows) t.equal(isDoorLocation(location), built, JSON.stringify(location));
  const sent: unknown[] = [];
  const reply = { redirect: (...args: unknown[]) => sent.push(args) } as unknown as FastifyReply;
  sendRedirect(reply, '/de/cs/x-1', 301);
  t.same(sent, [['/de/cs/x-1', 301]]);
  t.throws(() => sendRedirect(reply, '//evil.example/~', 301), /redirect door/);
  t.equal(sent.length, 1, 'nothing is answered for a target that went around the door');
});
