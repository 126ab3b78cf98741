import t from 'tap';
import type { LocaleStrategy } from '../../common/site.ts';
import { multilingualSite, singleLanguageSite } from './site-fixtures.ts';
import {
  acceptsPrefixed,
  acceptsUnprefixed,
  defaultLanguagePrefix,
  homePath,
  localeForLanguage,
  localePrefix,
  routeName,
} from './strategy.ts';

t.test('locale prefixes, home paths and accepted spellings per strategy', async (t) => {
  // strategy, site kind, locale → link prefix, home, accepts /{lang}/…, accepts unprefixed
  const rows: [LocaleStrategy, 'multi' | 'single', string, string, string, boolean, boolean][] = [
    ['prefix', 'multi', 'de-CH', '/de', '/de', true, false],
    ['prefix', 'multi', 'fr-CH', '/fr', '/fr', true, false],
    ['prefix_except_default', 'multi', 'de-CH', '', '/', false, true],
    ['prefix_except_default', 'multi', 'fr-CH', '/fr', '/fr', true, false],
    ['prefix_and_default', 'multi', 'de-CH', '', '/', true, true],
    ['prefix_and_default', 'multi', 'it-CH', '/it', '/it', true, false],
    ['no_prefix', 'multi', 'de-CH', '', '/', false, true],
    ['no_prefix', 'multi', 'fr-CH', '', '/', false, true],
    ['prefix', 'single', 'de-DE', '/de', '/de', true, false],
    ['prefix_except_default', 'single', 'de-DE', '', '/', false, true],
    ['prefix_and_default', 'single', 'de-DE', '', '/', true, true],
    ['no_prefix', 'single', 'de-DE', '', '/', false, true],
  ];
  for (const [strategy, kind, locale, prefix, home, prefixed, unprefixed] of rows) {
    const site = kind === 'multi' ? multilingualSite({ strategy }) : singleLanguageSite({ strategy });
    const name = `${strategy} ${kind} ${locale}`;
    t.equal(localePrefix(site, locale), prefix, `${name} prefix`);
    t.equal(homePath(site, locale), home, `${name} home`);
    t.equal(acceptsPrefixed(site, locale), prefixed, `${name} accepts prefixed`);
    t.equal(acceptsUnprefixed(site, locale), unprefixed, `${name} accepts unprefixed`);
  }
});

t.test('where a not-allowed language is sent: the default language in its place', async (t) => {
  const rows: [LocaleStrategy, string][] = [
    ['prefix', '/de'],
    ['prefix_and_default', '/de'],
    ['prefix_except_default', ''],
    ['no_prefix', ''],
  ];
  for (const [strategy, prefix] of rows)
    t.equal(defaultLanguagePrefix(multilingualSite({ strategy })), prefix, strategy);
});

t.test('first segment to locale', async (t) => {
  const site = multilingualSite({ locales: ['fr-CH', 'de-CH', 'it-CH'] });
  const rows: [string, string | undefined][] = [
    ['de', 'de-CH'],
    ['fr', 'fr-CH'],
    ['FR', 'fr-CH'],
    ['en', undefined],
    ['de-CH', undefined],
    ['', undefined],
  ];
  for (const [segment, locale] of rows) t.equal(localeForLanguage(site, segment), locale, JSON.stringify(segment));
  const twoGerman = multilingualSite({ locales: ['de-LI', 'de-CH'], defaultLocale: 'de-CH' });
  t.equal(localeForLanguage(twoGerman, 'de'), 'de-CH', 'the default locale wins a shared language');
});

t.test('route names carry the locale suffix', async (t) => {
  t.equal(routeName('content', 'de-CH'), 'content___de-CH');
  t.equal(routeName('home', 'fr-CH'), 'home___fr-CH');
});
