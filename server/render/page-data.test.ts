import t from 'tap';
import type { ApplicationConfiguration, PageEntry } from '../../common/content.ts';
import { loadSitesConfig } from '../config/sites.ts';
import { ContentChanges } from '../content/changes.ts';
import type { ContentService } from '../content/service.ts';
import { pageLinks } from './page-data.ts';

/**
 * The switchers and alternates of a page, over a content source that has page 4711 in some
 * locales only: where the page exists the link goes to it, elsewhere to that locale's home.
 */
const config = loadSitesConfig('config/sites.json').config;
const site = (host: string) => {
  const found = config.sites.find((s) => s.host === host);
  if (!found) throw new Error(host);
  return found;
};
const CH = site('www.halden.ch');
const UK = site('www.halden.co.uk');

const HAS_4711 = new Set(['en-GB', 'de-CH', 'fr-CH', 'de-DE']);
const page = (uuid: string, locale: string): PageEntry => ({
  uid: `page-${uuid}`,
  uuid,
  locale,
  title: 'Dishwasher',
  slug: 'dishwasher',
  template: [],
  url_taxonomy: [
    {
      url_taxonomy_segments: [{ title: 'Kitchen', segment: 'kitchen', exclude_from_breadcrumbs: false, link: [] }],
    },
  ],
});
const content: ContentService = {
  changes: new ContentChanges(),
  async getPage(uuid, locale) {
    if (uuid === '125') return page('125', locale);
    return uuid === '4711' && HAS_4711.has(locale) ? page(uuid, locale) : null;
  },
  async getEntry() {
    return null;
  },
  async getApplicationConfiguration() {
    return { globals: { dhfIsEnabled: true }, navigation: {} } as ApplicationConfiguration;
  },
  async hasPage(uuid, locale) {
    return (await this.getPage(uuid, locale)) !== null;
  },
};

t.test('the country selector goes to the same page in the target storefront, else to its home', async (t) => {
  const { countries } = await pageLinks(content, config, UK, 'en-GB', '4711');
  t.equal(countries.length, config.sites.length, 'every storefront');
  const byHost = (host: string) => countries.find((c) => c.href.startsWith(`https://${host}/`));
  const table: [string, string, boolean][] = [
    ['www.halden.de', 'https://www.halden.de/cs/kitchen/dishwasher-4711', false],
    ['www.halden.ch', 'https://www.halden.ch/de/cs/kitchen/dishwasher-4711', false],
    ['www.halden.fr', 'https://www.halden.fr/', false],
    ['www.halden.co.uk', 'https://www.halden.co.uk/cs/kitchen/dishwasher-4711', true],
  ];
  for (const [host, href, current] of table) {
    const link = byHost(host);
    t.equal(link?.href, href, host);
    t.equal(link?.current, current, `${host}: current`);
  }
  t.equal(countries.filter((c) => c.current).length, 1, 'exactly one current storefront');
});

t.test('the language switcher stays on the storefront; a locale without the page links its home', async (t) => {
  const { languages } = await pageLinks(content, config, CH, 'fr-CH', '4711');
  t.same(
    languages.map((l) => [l.lang, l.href, l.current]),
    [
      ['de-CH', '/de/cs/kitchen/dishwasher-4711', false],
      ['fr-CH', '/fr/cs/kitchen/dishwasher-4711', true],
      ['it-CH', '/it', false],
    ],
  );
  t.same((await pageLinks(content, config, UK, 'en-GB', '4711')).languages, [], 'none on a single-language storefront');
});

t.test('alternates list exactly the locales that have the page, plus x-default', async (t) => {
  const { alternates } = await pageLinks(content, config, CH, 'de-CH', '4711');
  t.same(alternates.map((a) => a.hreflang).sort(), [...HAS_4711, 'x-default'].sort());
  t.equal(
    alternates.find((a) => a.hreflang === 'x-default')?.href,
    'https://www.halden.ch/de/cs/kitchen/dishwasher-4711',
  );
  const onFrance = await pageLinks(content, config, site('www.halden.fr'), 'fr-FR', '4711');
  t.equal(
    onFrance.alternates.find((a) => a.hreflang === 'x-default')?.href,
    'https://www.halden.fr/',
    "x-default is the default locale's home where the page does not exist",
  );
});
