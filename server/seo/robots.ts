import { APP_PREFIX } from '../routing/route-shape.ts';

/**
 * Paths no crawler should index: the live-preview route, the content and data APIs, the preview
 * workbench and the build metadata. Pages themselves are all allowed; a page that must stay out of
 * search results says so with its own robots meta.
 */
const DISALLOWED = ['/cs/api/', '/_applicationConfiguration', '/graphql', '/__workbench', '/builds/'];

/** `/robots.txt` of a storefront: every page allowed, the non-page paths not, and where the sitemap is. */
export function robotsTxt(siteUrl: string, languages: string[]): string {
  // `$` anchors the end (RFC 9309 leaves it to crawlers; the major ones honour it), so a taxonomy
  // segment that merely starts with "live" stays crawlable.
  const live = ['', ...languages.map((language) => `/${language}`)].flatMap((prefix) => [
    `${prefix}/${APP_PREFIX}/live$`,
    `${prefix}/${APP_PREFIX}/live/`,
  ]);
  const lines = ['User-agent: *', ...[...DISALLOWED, ...live].map((path) => `Disallow: ${path}`), ''];
  lines.push(`Sitemap: ${siteUrl}/sitemap.xml`, '');
  return lines.join('\n');
}
