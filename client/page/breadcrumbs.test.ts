import t from 'tap';
import type { Link, PageEntry, TaxonomySegment } from '../../common/content.ts';
import { breadcrumbJsonLd, buildBreadcrumbs, type Crumb } from './breadcrumbs.ts';

const segment = (title: string, link?: Link, exclude = false): TaxonomySegment => ({
  title,
  segment: title.toLowerCase(),
  exclude_from_breadcrumbs: exclude,
  link: link ? [link] : [],
});
const internal = (url: string): Link => ({ url, url_type: 'internal' });
const external = (url: string): Link => ({ url, url_type: 'external' });

const page = (segments: TaxonomySegment[]): PageEntry => ({
  uid: 'blt1',
  uuid: '4711',
  locale: 'de-CH',
  title: 'Geschirrspüler',
  slug: 'geschirrspueler',
  template: [{ _content_type_uid: 'page_template', uid: 'tpl' }],
  url_taxonomy: [{ url_taxonomy_segments: segments }],
});

const base = (prefix: string) => ({
  prefix,
  languages: prefix ? ['de', 'fr', 'it'] : [],
  hosts: ['www.halden.ch', 'ch.localhost'],
});

function crumbs(segments: TaxonomySegment[], linkPrefix = '/de', homeHref = '/de'): Crumb[] {
  const links = base(linkPrefix);
  return buildBreadcrumbs({ page: page(segments), homeLabel: 'Startseite', homeHref, links, title: 'Spüler' });
}

t.test('the trail is Home, the visible taxonomy levels, then the page title', async (t) => {
  t.same(
    crumbs([
      segment('Küche', internal('/cs/kueche')),
      segment('Hidden', internal('/cs/hidden'), true),
      segment('Spülen', internal('/cs/kueche/spuelen')),
    ]),
    [
      { label: 'Startseite', href: '/de' },
      { label: 'Küche', href: '/de/cs/kueche' },
      { label: 'Spülen', href: '/de/cs/kueche/spuelen' },
      { label: 'Spüler' },
    ],
  );
});

t.test('Home links to the host root given, and the page title never links', async (t) => {
  const trail = crumbs([], '', '/');
  t.same(trail, [{ label: 'Startseite', href: '/' }, { label: 'Spüler' }]);
  t.notOk('href' in trail[trail.length - 1]!, 'the current page has no href at all');
});

t.test('a page without taxonomy has only Home and the title', async (t) => {
  const entry = { ...page([]), url_taxonomy: [] };
  t.same(buildBreadcrumbs({ page: entry, homeLabel: 'Home', homeHref: '/', links: base(''), title: 'T' }), [
    { label: 'Home', href: '/' },
    { label: 'T' },
  ]);
});

t.test('where a taxonomy link takes the visitor', async (t) => {
  const cases: [string, Link | undefined, string, string | undefined][] = [
    ['internal link, multilingual domain', internal('/cs/kueche'), '/de', '/de/cs/kueche'],
    ['internal link, single-language domain', internal('/cs/kueche'), '', '/cs/kueche'],
    ['external https link', external('https://example.com/x?y=1'), '/de', 'https://example.com/x?y=1'],
    ['external http link', external('http://example.com/'), '/de', 'http://example.com/'],
    ['external javascript: link', external('javascript:alert(1)'), '/de', undefined],
    ['external JavaScript: in mixed case', external('JaVaScRiPt:alert(1)'), '/de', undefined],
    ['external data: link', external('data:text/html,<script>alert(1)</script>'), '/de', undefined],
    ['external-typed path stays on the site', external('/cs/kueche'), '/de', '/de/cs/kueche'],
    ['external link on the own host', external('https://www.halden.ch/de/cs/kueche'), '/de', '/de/cs/kueche'],
    ['internal javascript: link', internal('javascript:alert(1)'), '/de', undefined],
    ['internal protocol-relative //evil', internal('//evil.example/x'), '', undefined],
    ['internal backslash /\\evil', internal('/\\evil.example/x'), '', undefined],
    ['internal absolute URL', internal('https://evil.example/'), '', undefined],
    ['internal relative path', internal('cs/kueche'), '/de', undefined],
    ['no link at all', undefined, '/de', undefined],
  ];
  for (const [label, link, prefix, expected] of cases) {
    const middle = crumbs([segment('Level', link)], prefix)[1];
    t.equal(middle?.label, 'Level', `${label}: label kept`);
    t.equal(middle?.href, expected, label);
  }
});

t.test('a content link with or without the prefix, or absolute on the own host, is the same link', async (t) => {
  const cases: [string, string, string | undefined][] = [
    // link as written, page prefix → rendered href
    ['/cs/kueche-200', '/de', '/de/cs/kueche-200'],
    ['/de/cs/kueche-200', '/de', '/de/cs/kueche-200'],
    ['/DE/cs/kueche-200', '/de', '/DE/cs/kueche-200'],
    ['https://www.halden.ch/cs/kueche-200', '/de', '/de/cs/kueche-200'],
    ['https://www.halden.ch/de/cs/kueche-200', '/de', '/de/cs/kueche-200'],
    ['http://WWW.HALDEN.CH./de/cs/kueche-200?x=1#y', '/de', '/de/cs/kueche-200?x=1#y'],
    ['//ch.localhost/de/cs/kueche-200', '/de', '/de/cs/kueche-200'],
    [' /cs/kueche-200 ', '/de', '/de/cs/kueche-200'],
    ['/fr/cs/cuisine-200', '/de', '/fr/cs/cuisine-200'],
    ['/', '/de', '/de'],
    ['/de', '/de', '/de'],
    ['/cs/kueche-200', '', '/cs/kueche-200'],
    ['https://www.halden.ch/cs/kueche-200', '', '/cs/kueche-200'],
    ['https://www.halden.de/cs/kueche-200', '/de', undefined],
    ['//evil.example/de/cs/x', '/de', undefined],
  ];
  for (const [url, prefix, expected] of cases) {
    t.equal(
      crumbs([segment('Level', internal(url))], prefix)[1]?.href,
      expected,
      `${url} on ${prefix || 'a single-language domain'}`,
    );
  }
});

t.test('JSON-LD lists every crumb with an absolute URL on the site base', async (t) => {
  const trail: Crumb[] = [
    { label: 'Startseite', href: '/de' },
    { label: 'Küche', href: '/de/cs/kueche' },
    { label: 'Partner', href: 'https://partner.example/x' },
    { label: 'Spüler' },
  ];
  const current = 'https://www.halden.ch/de/cs/kueche/spueler-4711';
  t.same(breadcrumbJsonLd(trail, 'https://www.halden.ch', current), {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Startseite', item: 'https://www.halden.ch/de' },
      { '@type': 'ListItem', position: 2, name: 'Küche', item: 'https://www.halden.ch/de/cs/kueche' },
      { '@type': 'ListItem', position: 3, name: 'Partner', item: 'https://partner.example/x' },
      { '@type': 'ListItem', position: 4, name: 'Spüler', item: current },
    ],
  });
});
