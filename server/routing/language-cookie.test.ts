import t from 'tap';
import { isCrossSiteFrame, languageCookie, shouldSetLanguageCookie } from './language-cookie.ts';
import { multilingualSite, singleLanguageSite } from './site-fixtures.ts';

t.test('the language cookie: 365 days, root path, lax, or none and secure cross-origin', async (t) => {
  t.strictSame(languageCookie(multilingualSite(), 'fr', 'lang'), {
    name: 'lang',
    value: 'fr',
    options: { maxAge: 31_536_000, path: '/', sameSite: 'lax', secure: false },
  });
  t.strictSame(languageCookie(multilingualSite({ crossOrigin: true }), 'it', 'lang'), {
    name: 'lang',
    value: 'it',
    options: { maxAge: 31_536_000, path: '/', sameSite: 'none', secure: true },
  });
});

t.test('set only on multilingual domains, only when absent or different', async (t) => {
  const rows: [string, ReturnType<typeof multilingualSite>, string | null, string | undefined, boolean][] = [
    ['absent', multilingualSite(), 'fr', undefined, true],
    ['different', multilingualSite(), 'fr', 'de', true],
    ['unchanged: response stays cacheable', multilingualSite(), 'fr', 'fr', false],
    ['single-language domain', singleLanguageSite(), null, undefined, false],
    ['single-language domain with a stray cookie', singleLanguageSite(), 'de', 'fr', false],
  ];
  for (const [name, site, served, cookie, expected] of rows) {
    t.equal(shouldSetLanguageCookie(site, served, cookie), expected, name);
  }
});

t.test('none and secure in a frame of another site, lax on any top-level navigation', async (t) => {
  const rows: [string, Record<string, string>, boolean][] = [
    ['the editor frames the page', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' }, true],
    ['an old-style frame of another site', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'frame' }, true],
    ['country switch from another domain', { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'document' }, false],
    ['language switch on the same domain', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'document' }, false],
    ['a frame of the same site', { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'iframe' }, false],
    ['a browser without fetch metadata', {}, false],
  ];
  for (const [name, headers, crossSite] of rows) {
    t.equal(isCrossSiteFrame(headers), crossSite, name);
    const cookie = languageCookie(multilingualSite(), 'fr', 'lang', { crossSiteFrame: isCrossSiteFrame(headers) });
    t.same(
      cookie.options,
      { sameSite: crossSite ? 'none' : 'lax', secure: crossSite, path: '/', maxAge: 31_536_000 },
      `${name}: the cookie`,
    );
  }
  const configured = languageCookie(multilingualSite({ crossOrigin: true }), 'fr', 'lang', { crossSiteFrame: false });
  t.match(configured.options, { sameSite: 'none', secure: true }, 'a storefront configured cross-origin always');
});
