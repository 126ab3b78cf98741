import t from 'tap';
import type { LocaleStrategy, Site } from '../../common/site.ts';
import { SLASH_TRICKS } from '../../test/slash-tricks.ts';
import type { RequestFacts } from './decision.ts';
import { decideRoute, localeOfUrl } from './route.ts';
import { describe, multilingualSite, STRATEGIES, singleLanguageSite } from './site-fixtures.ts';

/** The subtest object `t.test` hands to its callback. */
type TestContext = Parameters<Parameters<typeof t.test>[0]>[0];
type Signals = Pick<RequestFacts, 'cookieLanguage' | 'acceptLanguage'>;
/** raw path, query, detection signals, expected decision (see describe()). */
type Row = [string, string, Signals, string];

function decide(site: Site, rawPath: string, query = '', signals: Signals = {}) {
  return decideRoute({ rawPath, query, site, fallbackLocale: 'en-GB', ...signals });
}

function runTable(t: TestContext, site: Site, rows: Row[]) {
  for (const [rawPath, query, signals, expected] of rows) {
    const label = `${rawPath}${query}${Object.keys(signals).length ? ` ${JSON.stringify(signals)}` : ''}`;
    t.equal(describe(decide(site, rawPath, query, signals)), expected, label);
  }
}

const VARY = 'vary=Cookie,Accept-Language private=true';
const INVALID_LANGUAGE = '404 Page Not Found: : invalid language';

t.test('multilingual domain, prefix strategy', async (t) => {
  runTable(t, multilingualSite({ strategy: 'prefix' }), [
    ['/', '', {}, `302 /de ${VARY}`],
    ['/', '?utm=1', { cookieLanguage: 'fr' }, `302 /fr?utm=1 ${VARY}`],
    ['/', '', { cookieLanguage: 'en', acceptLanguage: 'it-IT' }, `302 /it ${VARY}`],
    ['/de', '', {}, 'render home de-CH de prefix=/de'],
    ['/fr', '', { cookieLanguage: 'it' }, 'render home fr-CH fr prefix=/fr'],
    ['/en', '?a=b', {}, '302 /de?a=b'],
    ['/en/cs/kueche/x-4711', '?a=b', {}, '302 /de/cs/kueche/x-4711?a=b'],
    ['/cs/kueche/x-4711', '?a=b', {}, '302 /de/cs/kueche/x-4711?a=b'],
    ['/cs/kueche/x-4711', '', { cookieLanguage: 'fr' }, '302 /de/cs/kueche/x-4711'],
    ['/de/cs/kueche/geschirrspueler-4711', '', {}, 'render content de-CH de prefix=/de id=4711 url=kueche'],
    ['/it/cs/a/b/c-99', '', {}, 'render content it-CH it prefix=/it id=99 url=a/b'],
    ['/de/cs/4711', '', {}, 'render content de-CH de prefix=/de id=4711 url='],
    ['/de/cs/2024/kueche', '', {}, 'render content de-CH de prefix=/de id=2024 url=2024'],
    ['/de/cs/x-1234567890', '', {}, 'render content de-CH de prefix=/de id=1234567890 url='],
    ['/fr/cs/live', '', {}, 'render live fr-CH fr prefix=/fr'],
    ['/fr/cs/live/kueche', '', {}, 'render live fr-CH fr prefix=/fr url=kueche'],
    ['/de/cs/live/a/b-1', '', {}, 'render content de-CH de prefix=/de id=1 url=live/a'],
    ['/de/cs/kueche', '', {}, '404 Page UUID is missing'],
    ['/de/cs/k%C3%BCche', '', {}, '404 Page UUID is missing'],
    ['/de/cs/x-125', '?a=1', {}, '301 /de?a=1'],
    ['/fr/cs/kueche/x-125', '', {}, '301 /fr'],
    ['/de/cs/x-12345678901', '?q=1', {}, '404 Page Not Found: /de/cs/x-12345678901?q=1'],
    ['/de/cs/a%20b-1', '', {}, '404 Page Not Found: /de/cs/a%20b-1'],
    ['/de/cs/%3Cscript%3E-1', '', {}, '404 Page Not Found: /de/cs/%3Cscript%3E-1'],
    ['/de/cs/live/a%22b', '', {}, '404 Page Not Found: /de/cs/live/a%22b'],
    ['/deu/cs/x-1', '', {}, '404 Page Not Found'],
    ['/d1/cs/x-1', '', {}, '404 Page Not Found'],
    ['/d-/cs/x-1', '', {}, '404 Page Not Found'],
    ['/de-CH/cs/x-1', '', {}, '404 Page Not Found'],
    ['/de/foo', '', {}, '404 Page Not Found'],
    ['/en/foo', '', {}, '404 Page Not Found'],
    ['/foo', '', {}, '404 Page Not Found'],
    ['/de/cs', '', {}, '404 Page not found: /de/cs'],
    ['/cs', '', {}, '404 Page not found: /cs'],
    ['/de/cs/x-1/', '', {}, '301 /de/cs/x-1'],
    ['/de/cs/x-1//', '?q=1', {}, '301 /de/cs/x-1?q=1'],
    ['/de/', '', {}, '301 /de'],
    ['/DE/cs/x-1', '?q=1', {}, '301 /de/cs/x-1?q=1'],
    ['/Fr', '', {}, '301 /fr'],
  ]);
});

t.test('multilingual domain, prefix_except_default strategy', async (t) => {
  runTable(t, multilingualSite({ strategy: 'prefix_except_default' }), [
    ['/', '', {}, `render home de-CH de prefix= ${VARY}`],
    ['/', '', { cookieLanguage: 'fr' }, `302 /fr ${VARY}`],
    ['/', '?a=b', { acceptLanguage: 'it' }, `302 /it?a=b ${VARY}`],
    ['/de', '', {}, '301 /'],
    ['/de', '?a=b', {}, '301 /?a=b'],
    ['/de/cs/x-1', '?a=b', {}, '301 /cs/x-1?a=b'],
    ['/fr', '', {}, 'render home fr-CH fr prefix=/fr'],
    ['/fr/cs/k/x-1', '', {}, 'render content fr-CH fr prefix=/fr id=1 url=k'],
    ['/cs/x-1', '', { cookieLanguage: 'fr' }, 'render content de-CH de prefix= id=1 url='],
    ['/en/cs/x-1', '?a=b', {}, '302 /cs/x-1?a=b'],
    ['/en', '', {}, '302 /'],
    ['/cs/x-125', '', {}, '301 /'],
    ['/fr/cs/x-125', '', {}, '301 /fr'],
    ['/foo', '', {}, '404 Page Not Found'],
    ['/cs/kueche', '', {}, '404 Page UUID is missing'],
  ]);
});

t.test('multilingual domain, prefix_and_default strategy', async (t) => {
  runTable(t, multilingualSite({ strategy: 'prefix_and_default' }), [
    ['/', '', {}, `render home de-CH de prefix= ${VARY}`],
    ['/', '', { cookieLanguage: 'it' }, `302 /it ${VARY}`],
    ['/de', '', {}, 'render home de-CH de prefix=/de'],
    ['/de/cs/x-1', '', {}, 'render content de-CH de prefix=/de id=1 url='],
    ['/cs/x-1', '', {}, 'render content de-CH de prefix= id=1 url='],
    ['/fr/cs/x-1', '', {}, 'render content fr-CH fr prefix=/fr id=1 url='],
    ['/en/cs/x-1', '?a=b', {}, '302 /de/cs/x-1?a=b'],
    ['/cs/x-125', '', {}, '301 /'],
    ['/de/cs/x-125', '', {}, '301 /de'],
    ['/fr/cs/x-125', '', {}, '301 /fr'],
  ]);
});

t.test('multilingual domain, no_prefix strategy: the locale comes from detection', async (t) => {
  runTable(t, multilingualSite({ strategy: 'no_prefix' }), [
    ['/', '', {}, `render home de-CH de prefix= ${VARY}`],
    ['/', '', { cookieLanguage: 'fr' }, `render home fr-CH fr prefix= ${VARY}`],
    ['/cs/x-1', '', { acceptLanguage: 'it-CH' }, `render content it-CH it prefix= id=1 url= ${VARY}`],
    ['/cs/x-1', '', {}, `render content de-CH de prefix= id=1 url= ${VARY}`],
    ['/fr/cs/x-1', '?a=b', {}, '301 /cs/x-1?a=b'],
    ['/fr', '', {}, '301 /'],
    ['/en/cs/x-1', '', {}, '302 /cs/x-1'],
    ['/cs/x-125', '', { cookieLanguage: 'fr' }, '301 /'],
    ['/foo', '', {}, '404 Page Not Found'],
  ]);
});

t.test('single-language domain, no_prefix strategy (the default there)', async (t) => {
  runTable(t, singleLanguageSite({ strategy: 'no_prefix' }), [
    ['/', '', { cookieLanguage: 'fr', acceptLanguage: 'fr' }, 'render home de-DE - prefix='],
    ['/cs/kueche/x-4711', '', {}, 'render content de-DE - prefix= id=4711 url=kueche'],
    ['/cs/live', '', {}, 'render live de-DE - prefix='],
    ['/de/cs/x-1', '', {}, INVALID_LANGUAGE],
    ['/de', '', {}, INVALID_LANGUAGE],
    ['/xx', '', {}, INVALID_LANGUAGE],
    ['/xx/cs/x-1', '', {}, INVALID_LANGUAGE],
    ['/de/cs', '', {}, INVALID_LANGUAGE],
    ['/foo', '', {}, '404 Page not found: /foo'],
    ['/de/foo', '', {}, '404 Page not found: /de/foo'],
    ['/cs', '', {}, '404 Page not found: /cs'],
    ['/cs/x-125', '?a=1', {}, '301 /?a=1'],
    ['/cs/kueche', '', {}, '404 Page UUID is missing'],
    ['/cs/k%C3%BCche', '', {}, '404 Page UUID is missing'],
    ['/cs/x-1/', '', {}, '301 /cs/x-1'],
    ['/cs/a%20b-1', '', {}, '404 Page Not Found: /cs/a%20b-1'],
  ]);
});

t.test('single-language domain, prefix strategy', async (t) => {
  runTable(t, singleLanguageSite({ strategy: 'prefix' }), [
    ['/', '', {}, '302 /de'],
    ['/de', '', {}, 'render home de-DE - prefix=/de'],
    ['/de/cs/x-1', '', {}, 'render content de-DE - prefix=/de id=1 url='],
    ['/cs/x-1', '?a=b', {}, '302 /de/cs/x-1?a=b'],
    ['/xx/cs/x-1', '', {}, INVALID_LANGUAGE],
    ['/de/cs/x-125', '', {}, '301 /de'],
  ]);
});

t.test('single-language domain, prefix_except_default strategy', async (t) => {
  runTable(t, singleLanguageSite({ strategy: 'prefix_except_default' }), [
    ['/', '', {}, 'render home de-DE - prefix='],
    ['/cs/x-1', '', {}, 'render content de-DE - prefix= id=1 url='],
    ['/de/cs/x-1', '', {}, INVALID_LANGUAGE],
    ['/de', '', {}, INVALID_LANGUAGE],
    ['/cs/x-125', '', {}, '301 /'],
  ]);
});

t.test('single-language domain, prefix_and_default strategy', async (t) => {
  runTable(t, singleLanguageSite({ strategy: 'prefix_and_default' }), [
    ['/', '', {}, 'render home de-DE - prefix='],
    ['/de', '', {}, 'render home de-DE - prefix=/de'],
    ['/de/cs/x-1', '', {}, 'render content de-DE - prefix=/de id=1 url='],
    ['/cs/x-1', '', {}, 'render content de-DE - prefix= id=1 url='],
    ['/xx/cs/x-1', '', {}, INVALID_LANGUAGE],
    ['/cs/x-125', '', {}, '301 /'],
    ['/de/cs/x-125', '', {}, '301 /de'],
  ]);
});

t.test('Czech: `cs` is both a language and the application prefix', async (t) => {
  runTable(t, multilingualSite({ host: 'www.halden.cz', locales: ['cs-CZ', 'sk-SK'], defaultLocale: 'cs-CZ' }), [
    ['/cs', '', {}, 'render home cs-CZ cs prefix=/cs'],
    ['/cs/cs/x-1', '', {}, 'render content cs-CZ cs prefix=/cs id=1 url='],
    ['/cs/x-1', '', {}, '302 /cs/cs/x-1'],
    ['/sk/cs/x-1', '', {}, 'render content sk-SK sk prefix=/sk id=1 url='],
  ]);
});

t.test('the locale of a URL, for error pages: its offered language prefix, else the default', async (t) => {
  const ch = multilingualSite();
  const cz = multilingualSite({ host: 'www.halden.cz', locales: ['sk-SK', 'cs-CZ'], defaultLocale: 'sk-SK' });
  const rows: [Site, string, string][] = [
    [ch, '/fr/nope/nothing', 'fr-CH'],
    [ch, '/IT/cs/%zz-1?a=b', 'it-CH'],
    [ch, '/fr?x=1', 'fr-CH'],
    [ch, '/en/cs/x-1', 'de-CH'],
    [ch, '/cs/x-1', 'de-CH'],
    [ch, '/', 'de-CH'],
    [ch, '//fr/x', 'de-CH'],
    [cz, '/cs/x-1', 'sk-SK'],
    [cz, '/cs/cs/x-1', 'cs-CZ'],
    [singleLanguageSite(), '/fr/cs/x-1', 'de-DE'],
  ];
  for (const [site, url, locale] of rows) t.equal(localeOfUrl(site, url), locale, `${site.host}${url}`);
});

t.test('render decisions carry route names and the content details', async (t) => {
  const site = multilingualSite();
  t.strictSame(decide(site, '/fr/cs/cuisine/lave-vaisselle-4711'), {
    kind: 'render',
    locale: 'fr-CH',
    language: 'fr',
    prefix: '/fr',
    route: 'content',
    routeName: 'content___fr-CH',
    pageId: '4711',
    contentUrl: 'cuisine',
    slug: 'lave-vaisselle-4711',
  });
  t.strictSame(decide(site, '/it'), {
    kind: 'render',
    locale: 'it-CH',
    language: 'it',
    prefix: '/it',
    route: 'home',
    routeName: 'home___it-CH',
  });
  t.match(decide(site, '/de/cs/live/k%C3%BCche'), { route: 'live', routeName: 'live___de-CH', contentUrl: 'küche' });
  t.match(decide(site, '/de/cs/k%C3%BCche/k%C3%BChlschrank-7'), {
    route: 'content',
    pageId: '7',
    contentUrl: 'küche',
    slug: 'kühlschrank-7',
  });
  t.match(decide(singleLanguageSite(), '/'), { route: 'home', routeName: 'home___de-DE', language: null });
});

t.test('route rules fire before validation, in one hop, and refused ones only warn', async (t) => {
  const rules = {
    '/de/cs/aktion': { redirect: '/de/cs/kueche/geschirrspueler-4711' },
    '/de/cs/js': { redirect: 'javascript:alert(1)' },
    '/de/cs/away': { redirect: 'https://evil.example/' },
    '/': { redirect: { to: '/fr', statusCode: 302 } },
  };
  const multi = multilingualSite({ routeRules: rules });
  runTable(t, multi, [
    ['/de/cs/aktion', '', {}, '301 /de/cs/kueche/geschirrspueler-4711'],
    ['/de/cs/aktion/', '', {}, '301 /de/cs/kueche/geschirrspueler-4711'],
    ['/de/cs/aktion', '?utm=1', {}, '301 /de/cs/kueche/geschirrspueler-4711?utm=1'],
    ['/', '', { cookieLanguage: 'it' }, '302 /fr'],
    ['/de/cs/js', '', {}, '404 Page UUID is missing'],
    ['/de/cs/away', '', {}, '404 Page UUID is missing'],
  ]);
  runTable(t, singleLanguageSite({ routeRules: rules }), [
    ['/de/cs/aktion', '', {}, '301 /de/cs/kueche/geschirrspueler-4711'],
  ]);
  t.match(decide(multi, '/de/cs/js').warnings, [/route rule "\/de\/cs\/js" ignored/], 'the refusal is reported');
  t.match(decide(multi, '/de/cs/away').warnings, [/refused/], 'off-site refusal is reported');
  t.equal(decide(multi, '/de/cs/x-1').warnings, undefined, 'no warnings when no rule matched');
});

t.test('reserved paths are not this router’s business', async (t) => {
  runTable(t, multilingualSite(), [
    ['/api/x', '', {}, '404 Page not found: /api/x'],
    ['/live', '', {}, '404 Page not found: /live'],
    ['/cs/api/contentstack/pages/1', '', {}, '404 Page not found: /cs/api/contentstack/pages/1'],
    ['/lively', '', {}, '404 Page Not Found'],
  ]);
});

const BAD_INPUT: [string, string, string, number][] = [
  ['percent-encoding error', '/de/cs/%E0%A4%A-1', '', 400],
  ['percent sign without hex', '/de/cs/%zz-1', '', 400],
  ['raw NUL', '/de/cs/x\u0000-1', '', 404],
  ['encoded NUL', '/de/cs/x%00-1', '', 404],
  ['raw dot-dot', '/de/cs/../../etc/passwd-1', '', 404],
  ['encoded dot-dot', '/de/cs/%2e%2e/%2E%2E/x-1', '', 404],
  ['encoded slash', '/de/cs/a%2Fb-1', '', 404],
  ['double slash', '/de//cs/x-1', '', 404],
  ['double slash at the end of a segment run', '/de/cs//x-1', '', 404],
  ['10 KB path', `/de/cs/${'a'.repeat(10_240)}-1`, '', 414],
  ['raw non-ASCII slug', '/de/cs/küche-1', '', 404],
  ['encoded non-ASCII slug with symbols', '/de/cs/%E2%80%AEk%C3%BCche-1', '', 404],
  ['hostile query: CRLF', '/de/cs/x-1', '?a=\r\nLocation:%20//evil.example', 400],
  ['hostile query: NUL', '/de/cs/x-1', '?a=\u0000', 400],
  ['hostile query: raw non-ASCII', '/de/cs/x-1', '?q=küche', 400],
  ['hostile query: 10 KB', '/de/cs/x-1', `?q=${'a'.repeat(10_240)}`, 414],
  ['hostile query: no question mark', '/de/cs/x-1', 'a=b', 400],
];

t.test('bad input is a 4xx decision, never an exception, on every site and strategy', async (t) => {
  for (const site of allSites()) {
    for (const [name, rawPath, query, status] of BAD_INPUT) {
      const label = `${site.host} ${site.strategy}: ${name}`;
      let decision: ReturnType<typeof decide> | undefined;
      t.doesNotThrow(() => {
        decision = decide(site, rawPath, query);
      }, label);
      t.match(decision, { kind: 'error', status }, label);
    }
  }
});

const DOOR_PATHS = [
  ...SLASH_TRICKS,
  '/de/cs//evil.example/x-123',
  '/\t/evil.example/',
  '/cs/%2F%2Fevil.example/x-1/',
  '/xx/cs/evil.example/',
  '/de/cs/evil.example-125/',
  '/en/%2F%2Fevil.example',
];
const DOOR_QUERIES = ['', '?x=1', '?next=//evil.example', '?//evil.example'];

t.test('redirect door: hostile paths never send the visitor to another host', async (t) => {
  for (const site of allSites()) {
    for (const rawPath of DOOR_PATHS) {
      for (const query of DOOR_QUERIES) {
        const label = `${site.host} ${site.strategy}: ${JSON.stringify(rawPath + query)}`;
        let decision: ReturnType<typeof decide> | undefined;
        t.doesNotThrow(() => {
          decision = decide(site, rawPath, query, { cookieLanguage: 'fr', acceptLanguage: 'it' });
        }, label);
        if (decision?.kind !== 'redirect') {
          t.ok(decision?.kind === 'error' && decision.status >= 400 && decision.status < 500, `${label}: a 4xx`);
          continue;
        }
        const { location } = decision;
        t.ok(location.startsWith('/'), `${label}: relative`);
        t.notOk(location.startsWith('//') || location.startsWith('/\\'), `${label}: not protocol-relative`);
        t.equal(new URL(location, site.url).host, site.host, `${label}: same host`);
      }
    }
  }
});

t.test('redirect door: what the hostile paths get on www.halden.ch (prefix)', async (t) => {
  runTable(t, multilingualSite(), [
    ['//evil.example/', '', {}, '404 Page not found: //evil.example/'],
    ['///evil.example/', '?x=1', {}, '404 Page not found: ///evil.example/'],
    ['/%2F%2Fevil.example/', '', {}, '404 Page not found: /%2F%2Fevil.example/'],
    ['/\\evil.example/', '', {}, '404 Page not found: /\\evil.example/'],
    ['/%5Cevil.example/', '?x=1', {}, '404 Page not found: /%5Cevil.example/'],
    ['/de//evil.example/', '', {}, '404 Page not found: /de//evil.example/'],
    ['/de//evil.example/', '?x=1', {}, '404 Page not found: /de//evil.example/'],
    ['/%3Cscript%3Ealert(1)%3C/script%3E', '', {}, '404 Page Not Found'],
    ['/<script>alert(1)</script>', '', {}, '404 Page not found: /<script>alert(1)</script>'],
    ['/de/cs/%C3%28-1', '', {}, '400 Bad Request'],
    ['/xx/cs/evil.example/', '?next=//evil.example', {}, '301 /xx/cs/evil.example?next=//evil.example'],
    ['/xx/cs/evil.example', '?next=//evil.example', {}, '302 /de/cs/evil.example?next=//evil.example'],
    ['/de/cs/evil.example-125', '?//evil.example', {}, '301 /de?//evil.example'],
  ]);
});

function allSites(): Site[] {
  return STRATEGIES.flatMap((strategy: LocaleStrategy) => [
    multilingualSite({ strategy }),
    singleLanguageSite({ strategy }),
  ]);
}
