import t from 'tap';
import type { Site, SitesConfig } from '../../common/site.ts';
import { createHostResolver, hostnameOf, needsForcedHost } from './resolve.ts';

const site = (host: string, locales: string[], aliases: string[] = []): Site => ({
  host,
  aliases,
  locales,
  defaultLocale: locales[0]!,
  url: `https://${host}`,
  strategy: locales.length > 1 ? 'prefix' : 'no_prefix',
  routeRules: {},
  crossOrigin: false,
  currency: 'EUR',
});

const config = (forceHost?: string): SitesConfig => ({
  siteName: 'Halden',
  titleSeparator: '|',
  ...(forceHost === undefined ? {} : { forceHost }),
  fallbackLocale: 'en-GB',
  languageCookieName: 'lang',
  sites: [
    site('www.halden.ch', ['de-CH', 'fr-CH', 'it-CH'], ['ch.localhost']),
    site('www.halden.de', ['de-DE'], ['de.localhost', 'shop.halden.de']),
  ],
});

/** `www.halden.ch`, `www.halden.ch (forced)` or `{status} {message}`: what the visitor gets. */
function outcome(resolver: ReturnType<typeof createHostResolver>, host: string | undefined): string {
  const result = resolver.resolve(host);
  if ('error' in result) return `${result.error.status} ${result.error.message}`;
  return result.forced ? `${result.site.host} (forced)` : result.site.host;
}

const UNKNOWN_404 = '404 Page Not Found';
const required = (host: string) => `500 Configuration for ${host} is unknown: forceHost is required`;

/** Host header, with forceHost www.halden.ch configured, without any forceHost. */
const TABLE: [string | undefined, string, string][] = [
  ['www.halden.ch', 'www.halden.ch', 'www.halden.ch'],
  ['www.halden.de', 'www.halden.de', 'www.halden.de'],
  ['shop.halden.de', 'www.halden.de', 'www.halden.de'],
  ['ch.localhost', 'www.halden.ch', 'www.halden.ch'],
  ['ch.localhost:3000', 'www.halden.ch', 'www.halden.ch'],
  ['WWW.Halden.DE', 'www.halden.de', 'www.halden.de'],
  ['www.halden.de:8443', 'www.halden.de', 'www.halden.de'],
  ['', 'www.halden.ch (forced)', required('')],
  [undefined, 'www.halden.ch (forced)', required('')],
  ['localhost', 'www.halden.ch (forced)', required('localhost')],
  ['localhost:3000', 'www.halden.ch (forced)', required('localhost')],
  ['LOCALHOST:3000', 'www.halden.ch (forced)', required('localhost')],
  ['127.0.0.1:3000', 'www.halden.ch (forced)', required('127.0.0.1')],
  ['127.0.0.1', 'www.halden.ch (forced)', required('127.0.0.1')],
  ['[::1]:3000', 'www.halden.ch (forced)', required('[::1]')],
  ['foo.azurecontainerapps.io', 'www.halden.ch (forced)', required('foo.azurecontainerapps.io')],
  [
    'vitrine.blue-sea-1.westeurope.azurecontainerapps.io:443',
    'www.halden.ch (forced)',
    required('vitrine.blue-sea-1.westeurope.azurecontainerapps.io'),
  ],
  ['www.example.com', UNKNOWN_404, UNKNOWN_404],
  ['halden.ch', UNKNOWN_404, UNKNOWN_404],
  ['azurecontainerapps.io.evil.example', UNKNOWN_404, UNKNOWN_404],
  ['127.0.0.1.evil.example', UNKNOWN_404, UNKNOWN_404],
  ['10.0.0.5:3000', UNKNOWN_404, UNKNOWN_404],
];

t.test('which storefront a Host header reaches', async (t) => {
  const withForce = createHostResolver(config('www.halden.ch'));
  const withoutForce = createHostResolver(config());
  for (const [host, forced, unforced] of TABLE) {
    t.equal(outcome(withForce, host), forced, `${JSON.stringify(host)} with forceHost`);
    t.equal(outcome(withoutForce, host), unforced, `${JSON.stringify(host)} without forceHost`);
  }
});

t.test('the errors carry their codes', async (t) => {
  const resolver = createHostResolver(config());
  const missing = resolver.resolve('localhost:3000');
  t.ok('error' in missing && missing.error.code === 'FORCE_HOST_REQUIRED');
  const unknown = resolver.resolve('www.example.com');
  t.ok('error' in unknown && unknown.error.code === 'HOST_UNKNOWN');
});

t.test('FORCE_HOST overrides the configured forceHost', async (t) => {
  const resolver = createHostResolver(config('www.halden.ch'), 'www.halden.de');
  t.equal(outcome(resolver, 'localhost:3000'), 'www.halden.de (forced)');
  t.equal(outcome(resolver, 'www.halden.ch'), 'www.halden.ch', 'a known host still gets its own storefront');
  t.equal(outcome(createHostResolver(config(), 'WWW.HALDEN.DE'), ''), 'www.halden.de (forced)', 'case-insensitive');
  t.equal(outcome(createHostResolver(config(), 'de.localhost'), 'localhost'), 'www.halden.de (forced)', 'an alias');
});

t.test('an empty FORCE_HOST counts as unset', async (t) => {
  t.equal(outcome(createHostResolver(config('www.halden.ch'), ''), 'localhost'), 'www.halden.ch (forced)');
  t.equal(outcome(createHostResolver(config(), ''), 'localhost'), required('localhost'));
});

t.test('a FORCE_HOST that is no storefront stops the start', async (t) => {
  t.throws(() => createHostResolver(config(), 'www.halden.fr'), /FORCE_HOST www\.halden\.fr/);
  t.throws(() => createHostResolver(config('www.halden.fr')), /www\.halden\.fr/, 'from the config too');
});

t.test('hostnameOf strips the port and lower-cases', async (t) => {
  const cases: [string | undefined, string][] = [
    ['Www.Halden.CH:3000', 'www.halden.ch'],
    ['www.halden.ch', 'www.halden.ch'],
    ['  www.halden.ch  ', 'www.halden.ch'],
    ['[::1]:3000', '[::1]'],
    ['[::1]', '[::1]'],
    ['[::1', '[::1'],
    ['', ''],
    [undefined, ''],
  ];
  for (const [header, expected] of cases) t.equal(hostnameOf(header), expected, JSON.stringify(header));
});

t.test('needsForcedHost: hosts that cannot name a storefront', async (t) => {
  const cases: [string, boolean][] = [
    ['', true],
    ['localhost', true],
    ['localhost.localdomain', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['::1', true],
    ['0.0.0.0', true],
    ['x.azurecontainerapps.io', true],
    ['www.halden.ch', false],
    ['ch.localhost', false],
    ['192.168.1.10', false],
    ['azurecontainerapps.io', false],
  ];
  for (const [host, expected] of cases) t.equal(needsForcedHost(host), expected, JSON.stringify(host));
});
