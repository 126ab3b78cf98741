import t from 'tap';
import { buildRequestContext, ConfigurationNotAvailable, type Site } from './site.ts';

const site = (host: string, locales: string[]): Site => ({
  host,
  aliases: [],
  locales,
  defaultLocale: locales[0] ?? '',
  url: `https://${host}`,
  strategy: 'prefix',
  routeRules: {},
  crossOrigin: false,
  currency: 'EUR',
});

t.test('the request context: the storefront, the language and the languages it serves', async (t) => {
  t.same(buildRequestContext(site('www.halden.ch', ['de-CH', 'fr-CH', 'it-CH']), 'fr-CH'), {
    multiLingualDomain: true,
    language: 'fr',
    allowedLanguages: ['de', 'fr', 'it'],
    requestHost: 'www.halden.ch',
  });
  t.same(buildRequestContext(site('www.halden.de', ['de-DE']), 'de-DE'), {
    multiLingualDomain: false,
    language: 'de',
    allowedLanguages: ['de'],
    requestHost: 'www.halden.de',
  });
});

t.test('without a storefront, or in a language it does not serve, configuration is not available', async (t) => {
  t.throws(() => buildRequestContext(undefined, 'de-DE'), ConfigurationNotAvailable);
  t.throws(() => buildRequestContext(site('www.halden.de', ['de-DE']), 'fr-FR'), {
    name: 'ConfigurationNotAvailable',
    message: 'Configuration not available: www.halden.de does not serve fr-FR',
  });
});
