import type { PageEntry } from '../../common/content.ts';
import type { Site, SitesConfig } from '../../common/site.ts';
import type { ContentService } from '../content/service.ts';
import type { PageLinksMemo } from '../render/page-data.ts';
import { canonicalPagePath } from '../routing/canonical.ts';
import { HOME_PAGE_ID } from '../routing/route-shape.ts';
import { homePath } from '../routing/strategy.ts';
import type { SitemapUrl } from './sitemap.ts';

/** A page asks to stay out of search results with `seo.enable_search_indexing: false`. */
function indexable(page: PageEntry): boolean {
  return page.seo?.enable_search_indexing !== false;
}

/** The entry's last change as the sitemap's W3C date-time, when it carries a readable one. */
function lastmodOf(page: PageEntry): string | undefined {
  const raw = (page as { updated_at?: unknown }).updated_at;
  if (typeof raw !== 'string') return undefined;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export interface CollectLog {
  warn(obj: object, msg: string): void;
}

/**
 * Every published, indexable page of a storefront in each of its locales, with the same hreflang
 * alternates its `<head>` carries. A page that cannot be read is left out and logged; a content
 * source that cannot list pages yields the home pages only.
 */
export async function collectSitemapUrls(
  content: ContentService,
  config: SitesConfig,
  site: Site,
  links: PageLinksMemo,
  log: CollectLog,
): Promise<SitemapUrl[]> {
  const urls: SitemapUrl[] = [];
  for (const locale of site.locales) {
    const ids = content.listPages ? await content.listPages(locale) : [HOME_PAGE_ID];
    for (const uuid of ids) {
      let page: PageEntry | null;
      try {
        page = await content.getPage(uuid, locale);
      } catch (error) {
        log.warn({ err: error, uuid, locale }, 'Sitemap: page left out, it cannot be read');
        continue;
      }
      if (!page || !indexable(page)) continue;
      const path = uuid === HOME_PAGE_ID ? homePath(site, locale) : canonicalPagePath(site, locale, page);
      const { alternates } = await links.get(content, config, site, locale, uuid);
      urls.push({ loc: site.url + path, lastmod: lastmodOf(page), alternates });
    }
  }
  return urls;
}
