import type { FastifyReply } from 'fastify';
import type { Site } from '../../common/site.ts';

/**
 * The one door every redirect `Location` goes through, route rules included.
 * Same-site targets come back as a path that starts with exactly one `/`; another host only when
 * the caller says `external`; anything that is not http(s) is refused (null).
 * `sendRedirect` is the only place a redirect is answered, and it checks the door was used.
 */

export type RedirectStatus = 301 | 302 | 307 | 308;

export function isAllowedRedirectStatus(status: unknown): status is RedirectStatus {
  return status === 301 || status === 302 || status === 307 || status === 308;
}

export function buildLocation(site: Site, target: string, opts: { external?: boolean } = {}): string | null {
  let cleaned = asBrowserSeesIt(target);
  if (cleaned === null) return null;
  // `//host/x` (and `\\host`, `/\host`, which browsers read alike) leaves the host: it is judged
  // as the https URL it stands for, never flattened into a path of this site.
  if (NETWORK_PATH.test(cleaned)) cleaned = `https://${cleaned.replace(NETWORK_PATH, '')}`;
  else if (isPathTarget(cleaned)) return buildPathLocation(cleaned);
  // A scheme-less reference (`evil.example/x`, `x-1`) would resolve against the current URL: refuse.
  const scheme = SCHEME.exec(cleaned)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return null;
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    return null;
  }
  if (isSiteHost(site, url.hostname)) return buildPathLocation(url.pathname + url.search + url.hash);
  return opts.external === true ? url.href : null;
}

/**
 * A same-site path target (starts with `/` or `\`), normalised: backslashes are slashes to a
 * browser, so runs of either collapse into one `/` before parsing (`//evil.example` would
 * otherwise be protocol-relative), then dot segments are resolved by the URL parser.
 */
export function buildPathLocation(target: string): string | null {
  const cleaned = asBrowserSeesIt(target);
  if (cleaned === null || !isPathTarget(cleaned)) return null;
  const cut = cleaned.search(/[?#]/);
  const path = cut === -1 ? cleaned : cleaned.slice(0, cut);
  const suffix = cut === -1 ? '' : cleaned.slice(cut);
  let url: URL;
  try {
    url = new URL(collapseSlashes(path) + suffix, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  // URL percent-encodes spaces, quotes and non-ASCII, so the header value is always legal.
  const location = url.pathname + url.search + url.hash;
  // The door's promise, checked rather than assumed: exactly one leading slash.
  return location.startsWith('/') && !location.startsWith('//') ? location : null;
}

/**
 * Answers a redirect. The Location must be one the door built: a path it would keep exactly as it
 * is, or an absolute http(s) URL in its parsed form. Anything else is a bug that would send
 * visitors elsewhere, so it fails the request (500) instead of leaving the host.
 */
export function sendRedirect(reply: FastifyReply, location: string, status: RedirectStatus): FastifyReply {
  if (!isDoorLocation(location)) throw new Error('Redirect target did not come through the redirect door');
  return reply.redirect(location, status);
}

export function isDoorLocation(location: string): boolean {
  if (isPathTarget(location)) return buildPathLocation(location) === location;
  try {
    const url = new URL(location);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.href === location;
  } catch {
    return false;
  }
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const NETWORK_PATH = /^[/\\]{2,}/;
const PLACEHOLDER_ORIGIN = 'http://placeholder.invalid';

function isPathTarget(target: string): boolean {
  return target.startsWith('/') || target.startsWith('\\');
}

function collapseSlashes(path: string): string {
  return path.replace(/[/\\]+/g, '/');
}

function isSiteHost(site: Site, hostname: string): boolean {
  const host = hostname.replace(/\.$/, '');
  return host === site.host.toLowerCase() || site.aliases.some((alias) => alias.toLowerCase() === host);
}

/**
 * WHATWG URL parsing drops tab, LF and CR anywhere and C0 controls or spaces at both ends, so
 * `java\tscript:` and ` javascript:` are `javascript:` to a browser. Do the same before any check;
 * any other control character makes the target unusable.
 */
function asBrowserSeesIt(target: unknown): string | null {
  if (typeof target !== 'string') return null;
  let text = '';
  for (const char of target) {
    if (char !== '\t' && char !== '\n' && char !== '\r') text += char;
  }
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  text = text.slice(start, end);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return null;
  }
  return text === '' ? null : text;
}
