import type { Alternate } from '../../client/page/head.ts';

/** One `<url>` of a sitemap: the page's absolute address and where else it exists. */
export interface SitemapUrl {
  loc: string;
  /** W3C date-time of the entry's last change, when the content says. */
  lastmod?: string;
  /** hreflang alternates across every storefront, x-default included. */
  alternates: Alternate[];
}

/** The sitemap protocol's limits per file: 50,000 URLs and 50 MB uncompressed; past either, an index lists the parts. */
export const URLS_PER_SITEMAP = 50_000;
export const BYTES_PER_SITEMAP = 50 * 1024 * 1024;

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Entity-escapes a text or attribute value (the protocol requires it for `&`, `<`, `>`, quotes). */
export function xmlEscape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string);
}

/** One `<url>` element with its `xhtml:link` alternates, as search engines read hreflang from sitemaps. */
function urlXml(url: SitemapUrl): string {
  const lines = [`<url><loc>${xmlEscape(url.loc)}</loc>`];
  if (url.lastmod) lines.push(`<lastmod>${xmlEscape(url.lastmod)}</lastmod>`);
  for (const alt of url.alternates) {
    lines.push(`<xhtml:link rel="alternate" hreflang="${xmlEscape(alt.hreflang)}" href="${xmlEscape(alt.href)}"/>`);
  }
  lines.push('</url>');
  return lines.join('\n');
}

const URLSET_OPEN = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  `<urlset xmlns="${SITEMAP_NS}" xmlns:xhtml="${XHTML_NS}">`,
];
const URLSET_CLOSE = ['</urlset>', ''];

function urlsetOf(items: string[]): string {
  return [...URLSET_OPEN, ...items, ...URLSET_CLOSE].join('\n');
}

/** A `<urlset>` of these URLs. */
export function sitemapXml(urls: SitemapUrl[]): string {
  return urlsetOf(urls.map(urlXml));
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

/**
 * Splits a storefront's URLs into files of at most `perFile` URLs and `maxBytes` bytes (UTF-8); an
 * index only when there is more than one.
 */
export function sitemapDocuments(
  base: string,
  urls: SitemapUrl[],
  perFile = URLS_PER_SITEMAP,
  maxBytes = BYTES_PER_SITEMAP,
): SitemapDocuments {
  const frame = Buffer.byteLength([...URLSET_OPEN, ...URLSET_CLOSE].join('\n')) + 1;
  const parts: string[] = [];
  let items: string[] = [];
  let bytes = frame;
  for (const url of urls) {
    const item = urlXml(url);
    const size = Buffer.byteLength(item) + 1;
    if (items.length > 0 && (items.length >= perFile || bytes + size > maxBytes)) {
      parts.push(urlsetOf(items));
      items = [];
      bytes = frame;
    }
    items.push(item);
    bytes += size;
  }
  parts.push(urlsetOf(items));
  const index = parts.length > 1 ? sitemapIndexXml(parts.map((_, i) => `${base}/sitemap-${i + 1}.xml`)) : null;
  return { index, parts };
}
