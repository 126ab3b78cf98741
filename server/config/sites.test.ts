import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SUPPORTED_LOCALES } from '../../common/locales.ts';
import { ConfigError } from '../errors.ts';
import { loadSitesConfig, parseSitesConfig } from './sites.ts';

const FILE = 'config/test-sites.json';

type RawSite = Record<string, unknown>;
type RawConfig = Record<string, unknown> & { sites: RawSite[] };

const valid = (): RawConfig => ({
  siteName: 'Halden',
  titleSeparator: '|',
  forceHost: 'www.halden.ch',
  fallbackLocale: 'en-GB',
  sites: [
    {
      host: 'www.halden.ch',
      locales: ['de-CH', 'fr-CH', 'it-CH'],
      defaultLocale: 'de-CH',
      aliases: ['ch.localhost'],
      routeRules: { '/de/cs/aktion': { redirect: '/de/cs/kueche/geschirrspueler-4711' } },
    },
    { host: 'www.halden.de', locales: ['de-DE'], defaultLocale: 'de-DE' },
  ],
});

/** Each row: what is wrong, how to break a valid config, then what the message must name. */
const BAD: [string, (c: RawConfig) => void, string, RegExp][] = [
  ['missing siteName', (c) => delete c.siteName, 'siteName', /required/i],
  ['empty siteName', (c) => (c.siteName = ''), 'siteName', /length/i],
  ['sites is not an array', (c) => (c.sites = { host: 'x' } as never), 'sites', /array/i],
  ['no sites at all', (c) => (c.sites = []), 'sites', /length/i],
  ['missing fallbackLocale', (c) => delete c.fallbackLocale, 'fallbackLocale', /required/i],
  ['host with a path', (c) => (c.sites[0]!.host = 'www.halden.ch/evil'), 'sites.0.host', /match/i],
  ['host with a port', (c) => (c.sites[1]!.host = 'www.halden.de:3000'), 'sites.1.host', /match/i],
  ['empty host', (c) => (c.sites[0]!.host = ''), 'sites.0.host', /length/i],
  ['bad alias', (c) => (c.sites[0]!.aliases = ['ok.localhost', 'bad alias']), 'sites.0.aliases.1', /match/i],
  ['no locales', (c) => (c.sites[1]!.locales = []), 'sites.1.locales', /length/i],
  [
    'defaultLocale not in locales',
    (c) => (c.sites[0]!.defaultLocale = 'en-GB'),
    'sites.0.defaultLocale',
    /not one of locales/,
  ],
  [
    'the same host on two sites',
    (c) => (c.sites[1]!.host = 'WWW.HALDEN.CH'),
    'sites.1.host',
    /www\.halden\.ch is already used by www\.halden\.ch/,
  ],
  [
    'an alias that is another site’s host',
    (c) => (c.sites[1]!.aliases = ['de.localhost', 'www.halden.ch']),
    'sites.1.aliases.1',
    /already used/,
  ],
  [
    'the same alias on two sites',
    (c) => (c.sites[1]!.aliases = ['ch.localhost']),
    'sites.1.aliases.0',
    /ch\.localhost is already used by www\.halden\.ch/,
  ],
  [
    'forceHost not a known host',
    (c) => (c.forceHost = 'www.halden.fr'),
    'forceHost',
    /not the host or alias of any site/,
  ],
  [
    'routeRules key without a leading slash',
    (c) => (c.sites[0]!.routeRules = { 'de/cs/aktion': { redirect: '/de' } }),
    'sites.0.routeRules',
    /"de\/cs\/aktion".*start with "\/"/,
  ],
  [
    'routeRules redirect of the wrong type',
    (c) => (c.sites[0]!.routeRules = { '/de/cs/aktion': { redirect: 42 } }),
    'sites.0.routeRules["/de/cs/aktion"].redirect',
    /union/i,
  ],
  [
    'routeRules with an unknown field',
    (c) => (c.sites[0]!.routeRules = { '/x': { redirect: '/y', status: 301 } }),
    'sites.0.routeRules["/x"].status',
    /unexpected property/i,
  ],
  ['url with a path', (c) => (c.sites[0]!.url = 'https://www.halden.ch/de'), 'sites.0.url', /match/i],
  ['url with javascript:', (c) => (c.sites[0]!.url = 'javascript:alert(1)'), 'sites.0.url', /match/i],
  ['bad strategy', (c) => (c.sites[0]!.strategy = 'sometimes'), 'sites.0.strategy', /union/i],
  ['bad currency', (c) => (c.sites[1]!.currency = 'euro'), 'sites.1.currency', /match/i],
  ['bad cookie name', (c) => (c.languageCookieName = 'lang; Path=/'), 'languageCookieName', /match/i],
  ['relative url', (c) => (c.sites[0]!.url = '/shop'), 'sites.0.url', /match/i],
  ['ftp url', (c) => (c.sites[0]!.url = 'ftp://www.halden.ch'), 'sites.0.url', /match/i],
  ['twitter handle with spaces', (c) => (c.sites[0]!.twitter = '@hal den'), 'sites.0.twitter', /match/i],
  ['twitter handle too long', (c) => (c.sites[0]!.twitter = '@a_very_long_handle_name'), 'sites.0.twitter', /match/i],
  ['empty description', (c) => (c.sites[0]!.description = ''), 'sites.0.description', /length/i],
  ['trailingSlash as a word', (c) => (c.sites[1]!.trailingSlash = 'yes'), 'sites.1.trailingSlash', /boolean/i],
];

t.test('trailingSlash is off unless a site sets it', async (t) => {
  const table: [unknown, boolean][] = [
    [undefined, false],
    [false, false],
    [true, true],
  ];
  for (const [given, expected] of table) {
    const config = valid();
    if (given !== undefined) config.sites[0]!.trailingSlash = given;
    t.equal(parseSitesConfig(config, FILE).config.sites[0]?.trailingSlash, expected, String(given));
  }
});

t.test('description and twitter are optional; a handle gets its @', async (t) => {
  const table: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['halden', '@halden'],
    ['@Halden_CH', '@Halden_CH'],
  ];
  for (const [given, expected] of table) {
    const config = valid();
    const raw = config.sites[0]!;
    if (given) raw.twitter = given;
    raw.description = 'Quiet appliances';
    const site = parseSitesConfig(config, FILE).config.sites[0];
    t.equal(site?.twitter, expected, String(given));
    t.equal(site?.description, 'Quiet appliances');
  }
});

t.test('a broken config names the file, the key and what was expected', async (t) => {
  for (const [label, breakIt, key, expected] of BAD) {
    const config = valid();
    breakIt(config);
    t.throws(() => parseSitesConfig(config, FILE), ConfigError, `${label}: a ConfigError`);
    try {
      parseSitesConfig(config, FILE);
    } catch (error) {
      const message = (error as Error).message;
      t.ok(message.startsWith(`${FILE}: `), `${label}: names the file (${message})`);
      t.ok(message.includes(`${key}:`), `${label}: names ${key} (${message})`);
      t.match(message, expected, `${label}: says what was expected`);
    }
  }
});

t.test('a config that is not an object is refused', async (t) => {
  for (const raw of [null, [], 'sites', 42]) {
    t.throws(() => parseSitesConfig(raw, FILE), { name: 'ConfigError', message: /config\/test-sites\.json: \(root\)/ });
  }
});

t.test('an invalid locale code is a warning, and the config still loads', async (t) => {
  const config = valid();
  config.sites[1] = { host: 'www.halden.de', locales: ['de_DE', 'DE-de'], defaultLocale: 'de_DE' };
  const loaded = parseSitesConfig(config, FILE);
  const localeWarnings = (warnings: string[]) => warnings.filter((w) => w.startsWith('languageCode'));
  t.same(localeWarnings(loaded.warnings), [
    'languageCode code de_DE is not valid',
    'languageCode code DE-de is not valid',
  ]);
  t.equal(loaded.config.sites[1]?.defaultLocale, 'de_DE');
  t.same(localeWarnings(parseSitesConfig(valid(), FILE).warnings), [], 'valid codes give no warning');
});

t.test('storefronts without a base URL are named once, in one warning', async (t) => {
  const config = valid();
  const missing = parseSitesConfig(config, FILE).warnings.filter((w) => w.startsWith('No base URL for SEO links'));
  t.equal(missing.length, 1, 'one line, however many storefronts');
  t.match(missing[0], 'for 2 storefront(s): www.halden.ch, www.halden.de; https://{host} is used');
  for (const site of config.sites) site.url = `https://${site.host}`;
  t.same(parseSitesConfig(config, FILE).warnings, [], 'every storefront has one: no warning');
});

t.test('defaults are filled in for what a site leaves out', async (t) => {
  const { config } = parseSitesConfig(valid(), FILE);
  const [ch, de] = config.sites;
  t.equal(config.languageCookieName, 'lang');
  t.equal(ch?.strategy, 'prefix', 'multilingual site: prefix');
  t.equal(de?.strategy, 'no_prefix', 'single-language site: no prefix');
  t.equal(ch?.url, 'https://www.halden.ch');
  t.equal(de?.url, 'https://www.halden.de');
  t.equal(de?.currency, 'EUR');
  t.same(de?.aliases, []);
  t.same(de?.routeRules, {});
  t.equal(de?.crossOrigin, false);
  t.equal(config.forceHost, 'www.halden.ch');
});

t.test('what a site gives overrides the defaults; host names are lower-cased', async (t) => {
  const config = valid();
  Object.assign(config.sites[0]!, {
    host: 'WWW.Halden.CH',
    aliases: ['CH.localhost'],
    url: 'http://shop.halden.ch',
    strategy: 'prefix_except_default',
    currency: 'CHF',
    crossOrigin: true,
  });
  config.languageCookieName = 'i18n_lang';
  config.forceHost = 'ch.LOCALHOST';
  const loaded = parseSitesConfig(config, FILE).config;
  const ch = loaded.sites[0];
  t.equal(ch?.host, 'www.halden.ch');
  t.same(ch?.aliases, ['ch.localhost']);
  t.equal(ch?.url, 'http://shop.halden.ch');
  t.equal(ch?.strategy, 'prefix_except_default');
  t.equal(ch?.currency, 'CHF');
  t.equal(ch?.crossOrigin, true);
  t.equal(loaded.languageCookieName, 'i18n_lang');
  t.equal(loaded.forceHost, 'ch.localhost', 'an alias can be the forced host');
});

t.test('an empty forceHost counts as unset', async (t) => {
  const config = valid();
  config.forceHost = '';
  t.equal(parseSitesConfig(config, FILE).config.forceHost, undefined);
});

t.test('the demo config loads: 25 storefronts, 29 locales', async (t) => {
  const { config, warnings } = loadSitesConfig(join(import.meta.dirname, '../../config/sites.json'));
  t.equal(config.sites.length, 25);
  const locales = config.sites.flatMap((s) => s.locales);
  t.equal(locales.length, 29);
  t.same([...locales].sort(), [...SUPPORTED_LOCALES].sort(), 'exactly the locales of the spec');
  t.same(warnings, []);
  for (const host of ['www.halden.ch', 'www.halden.de', 'www.halden.co.uk', 'www.halden.com']) {
    t.ok(
      config.sites.some((s) => s.host === host),
      `${host} is a storefront`,
    );
  }
  t.equal(config.sites.find((s) => s.host === 'www.halden.com')?.defaultLocale, 'en-US');
  for (const site of config.sites) {
    t.ok(
      site.aliases.some((a) => a.endsWith('.localhost')),
      `${site.host} has a .localhost alias`,
    );
  }
});

t.test('a missing or unreadable file names the file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-sites-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'broken.json'), '{ "siteName": ');
  t.throws(() => loadSitesConfig(join(dir, 'missing.json')), {
    name: 'ConfigError',
    message: new RegExp(`${join(dir, 'missing.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read`),
  });
  t.throws(() => loadSitesConfig(join(dir, 'broken.json')), {
    name: 'ConfigError',
    message: /broken\.json: cannot read/,
  });
});

t.test('a key nothing reads is warned about, naming where it is, and the start goes on', async (t) => {
  const config = valid() as ReturnType<typeof valid> & Record<string, unknown>;
  for (const site of config.sites) site.url = `https://${site.host}`;
  (config.sites[1] as Record<string, unknown>).trailingslash = true;
  config.sitename = 'Halden';
  const loaded = parseSitesConfig(config, FILE);
  t.match(loaded.warnings, [
    /^config\/test-sites\.json: unknown key "sitename" is ignored \(known: siteName,/,
    /^config\/test-sites\.json: sites\.1: unknown key "trailingslash" is ignored \(known: host, .*trailingSlash/,
  ]);
  t.equal(loaded.warnings.length, 2);
  t.equal(loaded.config.sites[1]?.trailingSlash, false, 'the misspelt key changes nothing');
});
