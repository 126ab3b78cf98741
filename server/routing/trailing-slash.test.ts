import t from 'tap';
import { internalLink } from '../../client/page/links.ts';
import type { PageEntry } from '../../common/content.ts';
import { canonicalPagePath } from './canonical.ts';
import { decideRoute } from './route.ts';
import { describe, multilingualSite, singleLanguageSite } from './site-fixtures.ts';
import { homePath } from './strategy.ts';

/** With `trailingSlash` on, every path the site writes ends in `/` and the redirect goes the other way. */

const ch = multilingualSite({ trailingSlash: true });
const de = singleLanguageSite({ trailingSlash: true });
const decide = (site = ch, rawPath = '/', query = '', cookieLanguage?: string) =>
  describe(decideRoute({ rawPath, query, site, fallbackLocale: 'en-GB', cookieLanguage }));

t.test('routing: the slash form renders, the bare form redirects to it in one hop', async (t) => {
  const rows: [typeof ch, string, string, string][] = [
    [ch, '/de/', '', 'render home de-CH de prefix=/de'],
    [ch, '/de/cs/kueche/x-4711/', '', 'render content de-CH de prefix=/de id=4711 url=kueche'],
    [ch, '/de/cs/kueche/x-4711', '?q=1', '301 /de/cs/kueche/x-4711/?q=1'],
    [ch, '/de/cs/x-1//', '', '301 /de/cs/x-1/'],
    [ch, '/de', '', '301 /de/'],
    [ch, '/de/cs/x-125/', '?a=1', '301 /de/?a=1'],
    [ch, '/en/cs/x-1/', '', '302 /de/cs/x-1/'],
    [ch, '/DE/cs/x-1/', '', '301 /de/cs/x-1/'],
    [de, '/', '', 'render home de-DE - prefix='],
    [de, '/cs/x-1', '', '301 /cs/x-1/'],
    [de, '/cs/x-1/', '', 'render content de-DE - prefix= id=1 url='],
    [de, '/cs/x-125/', '', '301 /'],
  ];
  for (const [site, path, query, expected] of rows) t.equal(decide(site, path, query), expected, `${site.host}${path}`);
  t.match(decide(ch, '/', ''), /^302 \/de\/ /, 'the root goes to the language home in its slash form');
  t.equal(decide(ch, '/fr/cs/x-1/', '', 'it'), 'render content fr-CH fr prefix=/fr id=1 url=', 'no loop');
});

t.test('canonical paths, home paths and content links end in a slash', async (t) => {
  const page = {
    uuid: '4711',
    slug: 'geschirrspueler',
    url_taxonomy: [{ url_taxonomy_segments: [{ segment: 'kueche' }] }],
  } as unknown as PageEntry;
  t.equal(canonicalPagePath(ch, 'de-CH', page), '/de/cs/kueche/geschirrspueler-4711/');
  t.equal(canonicalPagePath(multilingualSite(), 'de-CH', page), '/de/cs/kueche/geschirrspueler-4711', 'off');
  t.equal(homePath(ch, 'fr-CH'), '/fr/');
  t.equal(homePath(de, 'de-DE'), '/');
  const base = { prefix: '/de', languages: ['de', 'fr', 'it'], hosts: ['www.halden.ch'], trailingSlash: true };
  const links: [string, string][] = [
    ['/cs/kitchen-200', '/de/cs/kitchen-200/'],
    ['/fr/cs/kitchen-200', '/fr/cs/kitchen-200/'],
    ['https://www.halden.ch/cs/kitchen-200?x=1', '/de/cs/kitchen-200/?x=1'],
    ['/cs/kitchen-200/#top', '/de/cs/kitchen-200/#top'],
    ['/', '/de/'],
  ];
  for (const [url, expected] of links) t.equal(internalLink(url, base), expected, url);
  t.equal(internalLink('/cs/kitchen-200/', { ...base, trailingSlash: false }), '/de/cs/kitchen-200', 'off');
});
