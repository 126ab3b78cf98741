import { languageOf } from '../../common/locales.ts';
import { isMultilingual, type Site } from '../../common/site.ts';
import { slashForm, trailingSlashTarget } from '../../common/trailing-slash.ts';
import {
  DETECTION_VARY,
  messages,
  notFound,
  type RenderDecision,
  type RequestFacts,
  type RouteDecision,
  redirectTo,
} from './decision.ts';
import { detectLocale } from './detect.ts';
import { checkQuery, type ParsedPath, parsePath } from './path.ts';
import { isReservedPath } from './reserved.ts';
import { applyRouteRules } from './route-rules.ts';
import { APP_PREFIX, HOME_PAGE_ID, matchShape } from './route-shape.ts';
import { acceptsPrefixed, acceptsUnprefixed, defaultLanguagePrefix, localeForLanguage, routeName } from './strategy.ts';

export type { RequestFacts, RouteDecision } from './decision.ts';
export { isReservedPath } from './reserved.ts';

/**
 * The page router: one request's facts in, render | redirect | error out. Order:
 *  1. bad request target → 400/414;
 *  2. reserved paths (served elsewhere) → 404 here;
 *  3. route rules (before any 404, as Nitro runs them ahead of the app);
 *  4. trailing slashes → 301;
 *  5. language segment shape, route shape, page validation → 404;
 *  6. language and strategy → redirects, or the locale to render;
 *  7. page id: missing → 404, 125 → 301 to the home page.
 * The canonical-path check needs the page entry: see canonical.ts.
 */
export function decideRoute(facts: RequestFacts): RouteDecision {
  const badQuery = checkQuery(facts.query);
  if (badQuery) return { kind: 'error', status: badQuery.status, message: badQuery.message };
  const parsed = parsePath(facts.rawPath);
  if (!parsed.ok) return { kind: 'error', status: parsed.status, message: parsed.message };
  if (isReservedPath(parsed.path)) return notFound(messages.noRoute(facts.rawPath));
  const rules = applyRouteRules(facts.site, parsed.path, facts.query);
  const decision = rules.redirect ?? routePage(parsed, facts);
  return rules.warnings.length > 0 ? { ...decision, warnings: rules.warnings } : decision;
}

const TWO_LETTERS = /^[a-zA-Z]{2}$/;

function routePage(parsed: ParsedPath, facts: RequestFacts): RouteDecision {
  const { site, query } = facts;
  // A trailing slash follows the site's spelling (trailing-slash.ts): the other one redirects to it.
  const spelled = trailingSlashTarget(site, facts.rawPath);
  if (spelled !== null) return redirectTo(site, 301, spelled + query);

  const multi = isMultilingual(site);
  const hasLanguage = parsed.segments.length > 0 && !startsWithAppPrefix(site, parsed.segments);
  const languageSegment = hasLanguage ? parsed.segments[0] : undefined;
  const rest = hasLanguage ? parsed.segments.slice(1) : parsed.segments;
  const restRaw = hasLanguage ? parsed.rawSegments.slice(1) : parsed.rawSegments;

  if (languageSegment !== undefined) {
    const languageShaped = TWO_LETTERS.test(languageSegment) && (rest.length === 0 || rest[0] === APP_PREFIX);
    // On a multilingual domain anything else in first place is a bad language or prefix.
    if (!languageShaped) return notFound(multi ? messages.badLanguage : messages.noRoute(facts.rawPath));
    if (!multi) {
      const locale = localeForLanguage(site, languageSegment);
      if (locale === undefined || !acceptsPrefixed(site, locale)) return notFound(messages.invalidLanguage);
    }
  }

  const shape = matchShape(rest);
  if (!shape) return notFound(messages.noRoute(facts.rawPath));
  if (shape.route !== 'home' && !shape.valid) return notFound(messages.validation(facts.rawPath + query));

  const resolved = resolveLocale(site, languageSegment, restRaw, shape.route === 'home', facts);
  if ('kind' in resolved) return resolved;
  const { locale, prefix, detected } = resolved;

  const render: Omit<RenderDecision, 'route' | 'routeName'> = {
    kind: 'render',
    locale,
    language: multi ? languageOf(locale) : null,
    prefix,
    ...(detected ? { varyOn: [...DETECTION_VARY], privateCache: true } : {}),
  };
  switch (shape.route) {
    case 'home':
      return { ...render, route: 'home', routeName: routeName('home', locale) };
    case 'live':
      return {
        ...render,
        route: 'live',
        routeName: routeName('live', locale),
        ...(shape.contentUrl === undefined ? {} : { contentUrl: shape.contentUrl }),
      };
    case 'content':
      if (shape.pageId === null) return notFound(messages.uuidMissing);
      // The home page lives at the language root (or `/`), in the request's prefix form.
      if (shape.pageId === HOME_PAGE_ID) return redirectTo(site, 301, slashForm(site, prefix || '/') + query);
      return {
        ...render,
        route: 'content',
        routeName: routeName('content', locale),
        pageId: shape.pageId,
        contentUrl: shape.contentUrl,
        slug: shape.slug,
      };
  }
}

interface ResolvedLocale {
  locale: string;
  prefix: string;
  /** The locale came from cookie or Accept-Language. */
  detected: boolean;
}

/** Language guards under the site's prefix strategy (strategy.ts). */
function resolveLocale(
  site: Site,
  languageSegment: string | undefined,
  restRaw: string[],
  isHome: boolean,
  facts: RequestFacts,
): ResolvedLocale | RouteDecision {
  const query = facts.query;
  const multi = isMultilingual(site);
  if (languageSegment === undefined) {
    // Detection only where the locale is not in the URL: `/`, and every path under no_prefix.
    const detected = multi && (isHome || site.strategy === 'no_prefix');
    const locale = detected ? detectLocale(site, facts) : site.defaultLocale;
    if (acceptsUnprefixed(site, locale)) return { locale, prefix: '', detected };
    // `/` → the detected language's home; `/cs/…` → a missing language: the default one is prepended.
    return redirectTo(site, 302, joinPath(site, `/${languageOf(locale)}`, restRaw) + query, detected);
  }
  const locale = localeForLanguage(site, languageSegment);
  // A language the storefront does not offer is replaced by the default one, query kept.
  if (locale === undefined) return redirectTo(site, 302, joinPath(site, defaultLanguagePrefix(site), restRaw) + query);
  // A prefix the strategy does not give this locale (the default under prefix_except_default, any under no_prefix).
  if (!acceptsPrefixed(site, locale)) return redirectTo(site, 301, joinPath(site, '', restRaw) + query);
  const language = languageOf(locale);
  if (languageSegment !== language) return redirectTo(site, 301, joinPath(site, `/${language}`, restRaw) + query);
  return { locale, prefix: `/${language}`, detected: false };
}

/**
 * The locale a URL is in, for answers that are not a page (error pages): its language prefix when
 * the storefront offers that language, else the storefront's default. Reads the raw path only, so
 * it works for targets the router refuses (undecodable, too long).
 */
export function localeOfUrl(site: Site, rawUrl: string): string {
  const segments = rawUrl.split(/[?#]/, 1)[0]?.split('/').slice(1) ?? [];
  const first = segments[0] ?? '';
  if (!isMultilingual(site) || !TWO_LETTERS.test(first) || startsWithAppPrefix(site, segments)) {
    return site.defaultLocale;
  }
  return localeForLanguage(site, first) ?? site.defaultLocale;
}

/**
 * `cs` first is the application prefix, unless `cs` (Czech) is itself a language of the site and
 * the path is `/cs` or `/cs/cs/…`.
 */
function startsWithAppPrefix(site: Site, segments: readonly string[]): boolean {
  if (segments[0] !== APP_PREFIX) return false;
  const czech = site.locales.some((locale) => languageOf(locale) === APP_PREFIX);
  return !(czech && (segments.length === 1 || segments[1] === APP_PREFIX));
}

function joinPath(site: Site, prefix: string, rawSegments: readonly string[]): string {
  const path = rawSegments.length === 0 ? prefix : `${prefix}/${rawSegments.join('/')}`;
  return slashForm(site, path || '/');
}
