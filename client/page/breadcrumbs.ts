import type { PageEntry } from '../../common/content.ts';
import { externalLink, internalLink, type LinkBase } from './links.ts';

export interface Crumb {
  label: string;
  /** Absent for the current page. */
  href?: string;
}

interface BreadcrumbInput {
  page: PageEntry;
  homeLabel: string;
  /** The host root with the language on multilingual domains: `/de` or `/`. */
  homeHref: string;
  /** How taxonomy links from content become links of this page. */
  links: LinkBase;
  /** The page title shown as the heading (page_title, else title). */
  title: string;
}

/**
 * Breadcrumbs: Home, the taxonomy segments not excluded from breadcrumbs, then the
 * page title as the current page.
 */
export function buildBreadcrumbs({ page, homeLabel, homeHref, links, title }: BreadcrumbInput): Crumb[] {
  const segments = page.url_taxonomy[0]?.url_taxonomy_segments ?? [];
  const middle = segments
    .filter((s) => !s.exclude_from_breadcrumbs)
    .map((s): Crumb => {
      const link = s.link[0];
      const href = !link
        ? undefined
        : link.url_type === 'external'
          ? externalLink(link.url, links)
          : internalLink(link.url, links);
      return href ? { label: s.title, href } : { label: s.title };
    });
  return [{ label: homeLabel, href: homeHref }, ...middle, { label: title }];
}

/** schema.org BreadcrumbList with absolute URLs on the site's configured base. */
export function breadcrumbJsonLd(crumbs: Crumb[], siteUrl: string, currentUrl: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.label,
      item: crumb.href ? new URL(crumb.href, siteUrl).href : currentUrl,
    })),
  };
}
