import t from 'tap';
import { languageCookie, shouldSetLanguageCookie } from './language-cookie.ts';
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
