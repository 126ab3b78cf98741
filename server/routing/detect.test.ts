import t from 'tap';
import { type DetectionSignals, detectLocale } from './detect.ts';
import { multilingualSite } from './site-fixtures.ts';

t.test('first-visit locale: cookie, Accept-Language, fallback, default', async (t) => {
  const site = multilingualSite(); // de-CH, fr-CH, it-CH; default de-CH
  const enSite = multilingualSite({ locales: ['de-CH', 'fr-CH', 'en-GB'] });
  const rows: [string, DetectionSignals, string, typeof site?][] = [
    ['nothing, fallback language not allowed → default', { fallbackLocale: 'en-GB' }, 'de-CH'],
    ['allowed cookie', { cookieLanguage: 'fr', fallbackLocale: 'en-GB' }, 'fr-CH'],
    [
      'cookie beats Accept-Language',
      { cookieLanguage: 'it', acceptLanguage: 'fr-CH', fallbackLocale: 'en-GB' },
      'it-CH',
    ],
    ['not-allowed cookie ignored', { cookieLanguage: 'en', acceptLanguage: 'fr', fallbackLocale: 'en-GB' }, 'fr-CH'],
    ['cookie holding a locale ignored', { cookieLanguage: 'fr-CH', fallbackLocale: 'en-GB' }, 'de-CH'],
    ['junk cookie ignored', { cookieLanguage: '<x>', fallbackLocale: 'en-GB' }, 'de-CH'],
    ['exact locale', { acceptLanguage: 'it-CH', fallbackLocale: 'en-GB' }, 'it-CH'],
    ['exact locale, case-insensitive', { acceptLanguage: 'FR-ch', fallbackLocale: 'en-GB' }, 'fr-CH'],
    ['language part only', { acceptLanguage: 'fr-FR', fallbackLocale: 'en-GB' }, 'fr-CH'],
    ['bare language', { acceptLanguage: 'it', fallbackLocale: 'en-GB' }, 'it-CH'],
    [
      'an exact match anywhere beats a language part',
      { acceptLanguage: 'de-DE,it-CH;q=0.8', fallbackLocale: 'en-GB' },
      'it-CH',
    ],
    [
      'exact matches in preference order',
      { acceptLanguage: 'fr-FR, it-CH;q=0.9, fr-CH;q=0.5', fallbackLocale: 'en-GB' },
      'it-CH',
    ],
    [
      'first language part wins without exact match',
      { acceptLanguage: 'de-DE, fr-FR;q=0.5', fallbackLocale: 'en-GB' },
      'de-CH',
    ],
    ['quality order', { acceptLanguage: 'fr;q=0.4, it;q=0.9', fallbackLocale: 'en-GB' }, 'it-CH'],
    ['unknown languages skipped', { acceptLanguage: 'en-US, es;q=0.8, fr;q=0.1', fallbackLocale: 'en-GB' }, 'fr-CH'],
    ['q=0 is a refusal', { acceptLanguage: 'fr;q=0, it;q=0.1', fallbackLocale: 'en-GB' }, 'it-CH'],
    ['wildcard alone → default', { acceptLanguage: '*', fallbackLocale: 'en-GB' }, 'de-CH'],
    ['junk header → default', { acceptLanguage: ';;;,,=', fallbackLocale: 'en-GB' }, 'de-CH'],
    ['overlong header ignored', { acceptLanguage: `fr, ${'x-y, '.repeat(400)}`, fallbackLocale: 'en-GB' }, 'de-CH'],
    ['fallback language allowed (fr-FR → fr-CH)', { acceptLanguage: 'es', fallbackLocale: 'fr-FR' }, 'fr-CH'],
    ['fallback whose language is allowed', { acceptLanguage: 'es', fallbackLocale: 'en-GB' }, 'en-GB', enSite],
    ['fallback of another region, same language', { fallbackLocale: 'en-US' }, 'en-GB', enSite],
  ];
  for (const [name, signals, expected, onSite] of rows) {
    t.equal(detectLocale(onSite ?? site, signals), expected, name);
  }
});
