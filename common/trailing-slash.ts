import type { Site } from './site.ts';

/**
 * A storefront's one spelling of a path: without trailing slashes by default (spec guard 3), or
 * ending in exactly one `/` when the site sets `trailingSlash`. `/` is the same either way. Every
 * path the site builds (canonical, alternates, sitemap, redirects, content links) goes through
 * slashForm, and a request in the other spelling is redirected to it.
 */
export function slashForm(site: Pick<Site, 'trailingSlash'>, path: string): string {
  const [pathname = '', rest = ''] = splitPath(path);
  const bare = pathname.replace(/\/+$/, '');
  if (bare === '') return `/${rest}`;
  return (site.trailingSlash ? `${bare}/` : bare) + rest;
}

/**
 * The path the request should have used, when it differs only by trailing slashes; null when it is
 * already in the site's spelling. `rawPath` is the request path without its query.
 */
export function trailingSlashTarget(site: Pick<Site, 'trailingSlash'>, rawPath: string): string | null {
  const wanted = slashForm(site, rawPath);
  return wanted === rawPath ? null : wanted;
}

/** `/a/b?x#y` → ['/a/b', '?x#y']. */
function splitPath(path: string): [string, string] {
  const cut = path.search(/[?#]/);
  return cut === -1 ? [path, ''] : [path.slice(0, cut), path.slice(cut)];
}
