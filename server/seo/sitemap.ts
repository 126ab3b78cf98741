import type { Alternate } from '../../client/page/head.ts';

/** One `<url>` of a sitemap: the page's absolute address and where else it exists. */
export interface SitemapUrl {
  loc: string;
  /** W3C date-time of the entry's last change, when the content says. */
  lastmod?: string;
  /** hreflang alternates across every storefront, x-default included. */
  alternates: Alternate[];
}

/** The sitemap protocol's limit of URLs per file; past it a sitemap index lists the parts. */
export const URLS_PER_SITEMAP = 50_000;

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Entity-escapes a text or attribute value (the protocol requires it for `&`, `<`, `>`, quotes). */
export function xmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string);
}

/** A `<urlset>` with `xhtml:link` alternates, as search engines read hreflang from sitemaps. */
export function sitemapXml(urls: SitemapUrl[]): string {
  const items = urls.map((url) => {
    const lines = [`<url><loc>${xmlEscape(url.loc)}</loc>`];
    if (url.lastmod) lines.push(`<lastmod>${xmlEscape(url.lastmod)}</lastmod>`);
    for (const alt of url.alternates) {
      lines.push(`<xhtml:link rel="alternate" hreflang="${xmlEscape(alt.hreflang)}" href="${xmlEscape(alt.href)}"/>`);
    }
    lines.push('</url>');
    return lines.join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">`,
    ...items,
    '</urlset>',
    '',
  ].join('\n');
}

/** A `<sitemapindex>` naming the part files of a storefront with more URLs than one file may hold. */
export function sitemapIndexXml(locs: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<sitemapindex xmlns="${SITEMAP_NS}">`,
    ...locs.map((loc) => `<sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`),
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** What `/sitemap.xml` and `/sitemap-{n}.xml` answer for a storefront with these URLs. */
export type SitemapDocuments = { index: string | null; parts: string[] };

/** Splits a storefront's URLs into files of at most `perFile`; an index only when there is more than one. */
export function sitemapDocuments(base: string, urls: SitemapUrl[], perFile = URLS_PER_SITEMAP): SitemapDocuments {
  const parts: string[] = [];
  for (let start = 0; start < urls.length || parts.length === 0; start += perFile) {
    parts.push(sitemapXml(urls.slice(start, start + perFile)));
  }
  const index = parts.length > 1 ? sitemapIndexXml(parts.map((_, i) => `${base}/sitemap-${i + 1}.xml`)) : null;
  return { index, parts };
}
