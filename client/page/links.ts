import { slashForm } from '../../common/trailing-slash.ts';

/**
 * Links written in content (taxonomy segment links, navigation links) may carry the language prefix
 * or not, or be absolute on the storefront's own host: all three render the same link, with the
 * prefix exactly once.
 */
export interface LinkBase {
  /** The page's language prefix: `/de`, or '' on a single-language domain. */
  prefix: string;
  /** Route languages of the storefront (`de`, `fr`, `it`); empty on a single-language domain. */
  languages: readonly string[];
  /** The storefront's host and aliases, lower-case. */
  hosts: readonly string[];
  /** The storefront spells page paths with a trailing `/`: links are written that way, saving a redirect. */
  trailingSlash?: boolean;
}

/** A content link as a same-site path, or undefined when it is not one (another host, a script URL). */
export function internalLink(url: string, base: LinkBase): string | undefined {
  const path = ownPath(url.trim(), base.hosts);
  if (path === undefined) return undefined;
  const first = /^\/([^/?#]*)/.exec(path)?.[1] ?? '';
  // A path that already names a language of this storefront keeps it (`/fr/…` from a `/de` page).
  if (base.prefix === '' || base.languages.includes(first.toLowerCase())) return slashForm(base, path);
  return slashForm(base, path === '/' ? base.prefix : `${base.prefix}${path}`);
}

/** A content link leaving the site: only http(s) URLs; a URL on the own host becomes its path. */
export function externalLink(url: string, base: LinkBase): string | undefined {
  const own = ownPath(url.trim(), base.hosts);
  if (own !== undefined) return internalLink(own, base);
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** `/x`, `https://own.host/x` and `//own.host/x` → `/x`; anything else undefined. */
function ownPath(url: string, hosts: readonly string[]): string | undefined {
  if (/^[/\\]{2}/.test(url) || /^https?:/i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url.replace(/^[/\\]{2}/, 'https://'));
    } catch {
      return undefined;
    }
    if (!/^https?:$/.test(parsed.protocol) || !hosts.includes(parsed.hostname.replace(/\.$/, ''))) return undefined;
    return parsed.pathname + parsed.search + parsed.hash;
  }
  // `/\host` is another host to a browser.
  return url.startsWith('/') && !url.startsWith('/\\') ? url : undefined;
}
