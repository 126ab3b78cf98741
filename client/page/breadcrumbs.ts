import type { PageEntry } from '../../common/content.ts';

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
  /** Locale prefix for internal taxonomy links: `/de` or ''. */
  linkPrefix: string;
  /** The page title shown as the heading (page_title, else title). */
  title: string;
}

/** Only http(s) URLs may leave the site from a breadcrumb; anything else loses its link. */
function externalHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function internalHref(prefix: string, url: string): string | undefined {
  // `//host` and `/\host` are other hosts to a browser: never let taxonomy links become them.
  if (!url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return undefined;
  return `${prefix}${url}`;
}

/**
 * Spec section 2 "Breadcrumbs": Home, the taxonomy segments not excluded from breadcrumbs, then the
 * page title as the current page.
 */
export function buildBreadcrumbs({ page, homeLabel, homeHref, linkPrefix, title }: BreadcrumbInput): Crumb[] {
  const segments = page.url_taxonomy[0]?.url_taxonomy_segments ?? [];
  const middle = segments
    .filter((s) => !s.exclude_from_breadcrumbs)
    .map((s): Crumb => {
      const link = s.link[0];
      const href = !link
        ? undefined
        : link.url_type === 'external'
          ? externalHref(link.url)
          : internalHref(linkPrefix, link.url);
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
