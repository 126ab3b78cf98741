import t from 'tap';
import type { PageEntry } from '../../common/content.ts';
import type { LocaleStrategy } from '../../common/site.ts';
import { canonicalPagePath, canonicalRedirect } from './canonical.ts';
import { multilingualSite, singleLanguageSite } from './site-fixtures.ts';

function page(segments: string[], slug: string, uuid: string): PageEntry {
  return {
    uid: 'blt1',
    uuid,
    locale: 'de-CH',
    title: 'Geschirrspüler',
    slug,
    template: [],
    url_taxonomy: [
      {
        url_taxonomy_segments: segments.map((segment) => ({
          title: segment,
          segment,
          exclude_from_breadcrumbs: false,
          link: [],
        })),
      },
    ],
  };
}

const dishwasher = page(['kueche', 'geschirrspueler'], 'serie-6', '4711');

t.test('canonical path: prefix, cs, taxonomy segments, slug-id', async (t) => {
  const rows: [string, LocaleStrategy, 'multi' | 'single', string, PageEntry, string | undefined, string][] = [
    ['prefix', 'prefix', 'multi', 'de-CH', dishwasher, undefined, '/de/cs/kueche/geschirrspueler/serie-6-4711'],
    ['other locale', 'prefix', 'multi', 'fr-CH', dishwasher, undefined, '/fr/cs/kueche/geschirrspueler/serie-6-4711'],
    [
      'except default',
      'prefix_except_default',
      'multi',
      'de-CH',
      dishwasher,
      undefined,
      '/cs/kueche/geschirrspueler/serie-6-4711',
    ],
    [
      'and default, unprefixed',
      'prefix_and_default',
      'multi',
      'de-CH',
      dishwasher,
      '',
      '/cs/kueche/geschirrspueler/serie-6-4711',
    ],
    [
      'and default, prefixed',
      'prefix_and_default',
      'multi',
      'de-CH',
      dishwasher,
      '/de',
      '/de/cs/kueche/geschirrspueler/serie-6-4711',
    ],
    [
      'foreign prefix ignored',
      'prefix',
      'multi',
      'de-CH',
      dishwasher,
      '//evil.example',
      '/de/cs/kueche/geschirrspueler/serie-6-4711',
    ],
    [
      'single-language',
      'no_prefix',
      'single',
      'de-DE',
      dishwasher,
      undefined,
      '/cs/kueche/geschirrspueler/serie-6-4711',
    ],
    ['no taxonomy', 'prefix', 'multi', 'de-CH', page([], 'serie-6', '4711'), undefined, '/de/cs/serie-6-4711'],
    ['no slug', 'prefix', 'multi', 'de-CH', page(['kueche'], '', '4711'), undefined, '/de/cs/kueche/4711'],
    [
      'non-ASCII encoded',
      'prefix',
      'multi',
      'de-CH',
      page(['küche'], 'kühl schrank', '7'),
      undefined,
      '/de/cs/k%C3%BCche/k%C3%BChl%20schrank-7',
    ],
    [
      'hostile segments',
      'prefix',
      'multi',
      'de-CH',
      page(['', '/evil.example', '..', '?x#y'], 's', '1'),
      undefined,
      '/de/cs/evil.example/%3Fx%23y/s-1',
    ],
  ];
  for (const [name, strategy, kind, locale, entry, prefix, expected] of rows) {
    const site = kind === 'multi' ? multilingualSite({ strategy }) : singleLanguageSite({ strategy });
    t.equal(canonicalPagePath(site, locale, entry, prefix), expected, name);
  }
});

t.test('canonical redirect', async (t) => {
  const canonical = '/de/cs/kueche/geschirrspueler/serie-6-4711';
  // name, request path, query, canonical path, expected Location (null: no redirect)
  const rows: [string, string, string, string, string | null][] = [
    ['canonical request', canonical, '', canonical, null],
    ['canonical request with a query', canonical, '?a=b', canonical, null],
    ['differently encoded but equal', '/de/cs/k%C3%BCche-7', '', '/de/cs/k%c3%bcche-7', null],
    ['wrong slug', '/de/cs/kueche/x-4711', '?a=b', canonical, `${canonical}?a=b`],
    ['missing taxonomy', '/de/cs/serie-6-4711', '', canonical, canonical],
    [
      'hostile request path',
      '/de/cs//evil.example/x-4711',
      '?next=//evil.example',
      canonical,
      `${canonical}?next=//evil.example`,
    ],
    ['protocol-relative request path', '//evil.example/x-4711', '', canonical, canonical],
    ['undecodable request path', '/de/cs/%E0%A4%A-4711', '', canonical, canonical],
  ];
  for (const [name, requestPath, query, target, location] of rows) {
    const decision = canonicalRedirect(requestPath, query, target);
    t.strictSame(decision, location === null ? null : { kind: 'redirect', status: 301, location }, name);
  }
});

t.test('the Location comes from the page entry, never from the request', async (t) => {
  const site = multilingualSite();
  const canonical = canonicalPagePath(site, 'de-CH', page(['kueche'], 'x', '123'));
  const decision = canonicalRedirect('/de/cs//evil.example/x-123', '?a=b', canonical);
  t.equal(decision?.kind, 'redirect');
  const location = decision?.kind === 'redirect' ? decision.location : '';
  t.equal(location, '/de/cs/kueche/x-123?a=b');
  t.equal(new URL(location, site.url).host, site.host);
});
