import type { PageEntry } from '../../common/content.ts';
import { languageOf } from '../../common/locales.ts';
import type { Site } from '../../common/site.ts';
import { slashForm } from '../../common/trailing-slash.ts';
import type { RedirectDecision } from './decision.ts';
import { buildPathLocation } from './redirect.ts';
import { APP_PREFIX } from './route-shape.ts';
import { localePrefix } from './strategy.ts';

/**
 * The canonical path is prefix + `/cs/` + the taxonomy segments + `/{slug}-{uuid}`,
 * built from the page entry only, never from the request path.
 *
 * `prefix` defaults to the strategy's link prefix; pass the render decision's `prefix` so that
 * prefix_and_default keeps both spellings of the default locale. Any value other than '' or the
 * locale's own `/{language}` is ignored.
 */
export function canonicalPagePath(site: Site, locale: string, page: PageEntry, prefix?: string): string {
  const ownPrefix = `/${languageOf(locale)}`;
  const base = prefix === '' || prefix === ownPrefix ? prefix : localePrefix(site, locale);
  const taxonomy = page.url_taxonomy[0]?.url_taxonomy_segments ?? [];
  // A CMS segment holding `/` still means path levels; empty and dot parts would change the path's shape.
  const levels = taxonomy
    .flatMap((level) => String(level.segment ?? '').split('/'))
    .filter((part) => part !== '' && part !== '.' && part !== '..');
  const last = page.slug ? `${page.slug}-${page.uuid}` : page.uuid;
  return slashForm(site, `${base}/${APP_PREFIX}/${[...levels, last].map(encodeURIComponent).join('/')}`);
}

/** 301 to the canonical path, query kept, when the request path differs from it (compared decoded). */
export function canonicalRedirect(requestPath: string, query: string, canonicalPath: string): RedirectDecision | null {
  if (decoded(requestPath) === decoded(canonicalPath)) return null;
  const location = buildPathLocation(canonicalPath + query);
  return location === null ? null : { kind: 'redirect', status: 301, location };
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
