import t from 'tap';
import type { PageEntry } from '../../common/content.ts';
import { buildHead, documentTitle, pageHeading, titleFromPath } from './head.ts';

const page = (fields: Partial<PageEntry> = {}): PageEntry => ({
  uid: 'blt1',
  uuid: '58',
  locale: 'de-CH',
  title: 'Entry title',
  slug: 'cool-fridge-box',
  template: [{ _content_type_uid: 'page_template', uid: 'tpl' }],
  url_taxonomy: [],
  ...fields,
});

t.test('a page without a title is named after the last path segment', async (t) => {
  const cases: [string, string][] = [
    ['/cs/cool-fridge-box-58', 'Cool fridge box'],
    ['/de/cs/kueche/cool-fridge-box-58', 'Cool fridge box'],
    ['/cs/cool-fridge-box-58/', 'Cool fridge box'],
    ['/cs/cool-fridge-box-58?ref=mail', 'Cool fridge box'],
    ['/cs/cool-fridge-box-1234567890', 'Cool fridge box'],
    ['/cs/k%C3%BChlschrank-12', 'Kühlschrank'],
    ['/cs/%C3%BCber-uns-3', 'Über uns'],
    ['/cs/bad%E0%A4%A-3', 'Bad%E0%A4%A'],
    ['/cs/already-readable', 'Already readable'],
    ['/cs/model-2024-edition-9', 'Model 2024 edition'],
    ['', ''],
    ['/', ''],
  ];
  for (const [path, expected] of cases) t.equal(titleFromPath(path), expected, JSON.stringify(path));
});

t.test('the heading is page_title, else title, else the path fallback', async (t) => {
  const cases: [string, PageEntry | null, string][] = [
    ['page_title wins', page({ page_title: 'Page title', title: 'Title' }), 'Page title'],
    ['empty page_title falls back to title', page({ page_title: '', title: 'Title' }), 'Title'],
    ['no page_title uses title', page({ title: 'Title' }), 'Title'],
    ['no titles at all uses the path', page({ title: '' }), 'Cool fridge box'],
    ['no page uses the path', null, 'Cool fridge box'],
  ];
  for (const [label, entry, expected] of cases) {
    t.equal(pageHeading(entry, '/cs/cool-fridge-box-58'), expected, label);
  }
});

t.test('the document title is title, separator, site name', async (t) => {
  t.equal(documentTitle('Cool fridge box', '|', 'Halden'), 'Cool fridge box | Halden');
  t.equal(documentTitle('Kühlschrank', '–', 'Halden'), 'Kühlschrank – Halden');
  t.equal(documentTitle('', '|', 'Halden'), 'Halden', 'no dangling separator');
});

const head = (entry: PageEntry, path = '/de/cs/cool-fridge-box-58') =>
  buildHead({
    page: entry,
    path,
    locale: 'de-CH',
    siteName: 'Halden',
    separator: '|',
    canonicalUrl: 'https://www.halden.ch/de/cs/cool-fridge-box-58',
    alternates: [{ hreflang: 'fr-CH', href: 'https://www.halden.ch/fr/cs/cool-fridge-box-58' }],
    jsonLd: [{ '@type': 'Thing' }],
  });

t.test('the browser tab title prefers meta_title, then page_title, then title, then the path', async (t) => {
  const cases: [string, PageEntry, string][] = [
    ['meta_title', page({ seo: { meta_title: 'Meta' }, page_title: 'Page title', title: 'Title' }), 'Meta | Halden'],
    ['page_title', page({ seo: { meta_title: '' }, page_title: 'Page title', title: 'Title' }), 'Page title | Halden'],
    ['title', page({ title: 'Title' }), 'Title | Halden'],
    ['path fallback', page({ title: '' }), 'Cool fridge box | Halden'],
  ];
  for (const [label, entry, expected] of cases) {
    const model = head(entry);
    t.equal(model.title, expected, label);
    t.equal(model.ogTitle, expected, `${label}: og:title`);
  }
});

t.test('search engines are told not to index only when indexing is switched off', async (t) => {
  const cases: [string, boolean | undefined, string | undefined][] = [
    ['indexing off', false, 'noindex, nofollow'],
    ['indexing on', true, undefined],
    ['not set', undefined, undefined],
  ];
  for (const [label, flag, expected] of cases) {
    const seo = flag === undefined ? {} : { enable_search_indexing: flag };
    t.equal(head(page({ seo })).robots, expected, label);
  }
  t.equal(head(page()).robots, undefined, 'no seo object at all');
});

t.test('canonical and og:url come from the entry, else the page URL', async (t) => {
  const own = head(page({ seo: { canonical_url: 'https://www.halden.ch/de/cs/original-1' } }));
  t.equal(own.canonical, 'https://www.halden.ch/de/cs/original-1');
  t.equal(own.ogUrl, 'https://www.halden.ch/de/cs/original-1');

  const given = head(page({ seo: { canonical_url: '' } }));
  t.equal(given.canonical, 'https://www.halden.ch/de/cs/cool-fridge-box-58');
  t.equal(given.ogUrl, 'https://www.halden.ch/de/cs/cool-fridge-box-58');
});

t.test('social metadata: og:locale, twitter card, description, alternates', async (t) => {
  const model = head(page({ seo: { meta_description: 'Kühl & leise' } }));
  t.equal(model.ogLocale, 'de_CH');
  t.equal(model.twitterCard, 'summary_large_image');
  t.equal(model.description, 'Kühl & leise');
  t.equal(model.ogDescription, 'Kühl & leise');
  t.same(model.alternates, [{ hreflang: 'fr-CH', href: 'https://www.halden.ch/fr/cs/cool-fridge-box-58' }]);
  t.same(model.jsonLd, [{ '@type': 'Thing' }]);

  const bare = head(page());
  t.equal(bare.description, undefined, 'no description without meta_description');
  t.equal(bare.ogDescription, undefined);
});

t.test('the description is the page meta description, else the storefront description', async (t) => {
  const withSite = (entry: PageEntry, siteDescription?: string) =>
    buildHead({
      page: entry,
      path: '/de/cs/cool-fridge-box-58',
      locale: 'de-CH',
      siteName: 'Halden',
      separator: '|',
      canonicalUrl: 'https://www.halden.ch/de/cs/cool-fridge-box-58',
      alternates: [],
      jsonLd: [],
      siteDescription,
    });
  const table: [string, PageEntry, string | undefined, string | undefined][] = [
    ['page wins', page({ seo: { meta_description: 'Page' } }), 'Site', 'Page'],
    ['empty page description falls back', page({ seo: { meta_description: '' } }), 'Site', 'Site'],
    ['no seo falls back', page(), 'Site', 'Site'],
    ['neither', page(), undefined, undefined],
  ];
  for (const [label, entry, site, expected] of table) {
    const model = withSite(entry, site);
    t.equal(model.description, expected, label);
    t.equal(model.ogDescription, expected, `${label}: og:description`);
  }
});

t.test('og:site_name always, og:image and twitter:site only when known', async (t) => {
  const model = head(page());
  t.equal(model.siteName, 'Halden');
  t.equal(model.image, undefined);
  t.equal(model.twitterSite, undefined);
});
