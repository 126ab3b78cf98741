/**
 * The three route shapes, matched on the segments after the optional language:
 *   home     []
 *   live     cs / live / {contentUrl?}
 *   content  cs / {contentUrl…} / {slug}-{uuid}
 * plus the validation of a content path and the page id rule.
 */

export const APP_PREFIX = 'cs';
/** The special page id; it is each locale's home page. */
export const HOME_PAGE_ID = '125';

export type RouteShape =
  | { route: 'home' }
  | { route: 'live'; contentUrl?: string; valid: boolean }
  | { route: 'content'; contentUrl: string; slug: string; pageId: string | null; valid: boolean };

export function matchShape(segments: readonly string[]): RouteShape | null {
  if (segments.length === 0) return { route: 'home' };
  if (segments[0] !== APP_PREFIX || segments.length === 1) return null;
  const rest = segments.slice(1);
  if (rest[0] === 'live' && rest.length <= 2) {
    const contentUrl = rest[1];
    return contentUrl === undefined
      ? { route: 'live', valid: true }
      : { route: 'live', contentUrl, valid: SEGMENT.test(contentUrl) };
  }
  const slug = rest.at(-1) ?? '';
  const id = pageIdOf(rest);
  return {
    route: 'content',
    contentUrl: rest.slice(0, -1).join('/'),
    slug,
    pageId: id === TOO_LONG ? null : id,
    valid: id !== TOO_LONG && rest.every((segment) => SEGMENT.test(segment)),
  };
}

/**
 * Content segments are slugs: letters and digits of any script (browsers send them encoded),
 * `-`, `.`, `_`, `~`. Anything else (spaces, quotes, `<`, `%`) fails validation → 404.
 */
const SEGMENT = /^[\p{L}\p{M}\p{N}._~-]+$/u;
const TOO_LONG = Symbol('too long');

/** The page id is the last run of 1 to 10 digits; a longer last run is no page id at all (validation fails). */
function pageIdOf(segments: readonly string[]): string | null | typeof TOO_LONG {
  const last = segments.join('/').match(/\d+/g)?.at(-1);
  if (last === undefined) return null;
  return last.length <= 10 ? last : TOO_LONG;
}
