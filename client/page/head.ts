import type { PageEntry } from '../../common/content.ts';
import { ogLocale } from '../../common/locales.ts';

export interface Alternate {
  hreflang: string;
  href: string;
}

export interface HeadModel {
  title: string;
  description?: string;
  robots?: string;
  canonical?: string;
  ogUrl?: string;
  ogLocale: string;
  ogTitle: string;
  ogDescription?: string;
  twitterCard: 'summary_large_image';
  /** og:site_name */
  siteName: string;
  /** Absolute URL of the page's hero image (og:image, twitter:image). */
  image?: string;
  /** twitter:site, the storefront's handle. */
  twitterSite?: string;
  alternates: Alternate[];
  /** JSON-LD objects; serialised through the inline-JSON door when rendered. */
  jsonLd: object[];
}

/**
 * A title for a page without one: the last path segment without its `-{id}` suffix, hyphens to spaces, first
 * letter capitalised (`/cs/cool-fridge-box-58` → `Cool fridge box`).
 */
export function titleFromPath(path: string): string {
  const last =
    path
      .split('?')[0]
      ?.split('/')
      .filter((s) => s !== '')
      .pop() ?? '';
  let readable = last
    .replace(/-\d{1,10}$/, '')
    .replace(/-/g, ' ')
    .trim();
  try {
    readable = decodeURIComponent(readable);
  } catch {
    // Keep the raw text; it is escaped on output like any other.
  }
  return readable ? readable.charAt(0).toUpperCase() + readable.slice(1) : '';
}

/** The heading and last breadcrumb: page_title, else title, else the path fallback. */
export function pageHeading(page: PageEntry | null, path: string): string {
  return page?.page_title || page?.title || titleFromPath(path);
}

/** `{title} {separator} {siteName}`, without a dangling separator when the title is empty. */
export function documentTitle(title: string, separator: string, siteName: string): string {
  return title ? `${title} ${separator} ${siteName}` : siteName;
}

interface HeadInput {
  page: PageEntry;
  path: string;
  locale: string;
  siteName: string;
  separator: string;
  /** Absolute canonical URL of this page on its storefront. */
  canonicalUrl: string;
  alternates: Alternate[];
  jsonLd: object[];
  /** The storefront's description, for a page without its own. */
  siteDescription?: string;
  image?: string | null;
  twitterSite?: string;
}

/** Page titles and metadata: title, description, canonical, robots, alternates and social tags. */
export function buildHead({
  page,
  path,
  locale,
  siteName,
  separator,
  canonicalUrl,
  alternates,
  jsonLd,
  siteDescription,
  image,
  twitterSite,
}: HeadInput): HeadModel {
  const seo = page.seo ?? {};
  const description = seo.meta_description || siteDescription;
  const title = documentTitle(seo.meta_title || pageHeading(page, path), separator, siteName);
  const canonical = seo.canonical_url || canonicalUrl;
  return {
    title,
    ...(description ? { description, ogDescription: description } : {}),
    ...(seo.enable_search_indexing === false ? { robots: 'noindex, nofollow' } : {}),
    canonical,
    ogUrl: canonical,
    ogLocale: ogLocale(locale),
    ogTitle: title,
    twitterCard: 'summary_large_image',
    siteName,
    ...(image ? { image } : {}),
    ...(twitterSite ? { twitterSite } : {}),
    alternates,
    jsonLd,
  };
}
