import { languageOf } from '../../common/locales.ts';
import type { Site } from '../../common/site.ts';
import { slashForm } from '../../common/trailing-slash.ts';

/**
 * Locale prefix strategies (nuxt-i18n semantics):
 * - no_prefix: no locale has a prefix;
 * - prefix: every locale has one (`/de`);
 * - prefix_except_default: every locale but the default has one;
 * - prefix_and_default: like prefix_except_default for links, but the default locale also answers
 *   under its prefix.
 */

/** The prefix links to `locale` carry: '' or '/de'. */
export function localePrefix(site: Site, locale: string): string {
  const prefixed = site.strategy === 'prefix' || (site.strategy !== 'no_prefix' && locale !== site.defaultLocale);
  return prefixed ? `/${languageOf(locale)}` : '';
}

export function homePath(site: Site, locale: string): string {
  return slashForm(site, localePrefix(site, locale) || '/');
}

/** Route names carry a locale suffix, nuxt-i18n style (`content___de-CH`). */
export function routeName(name: string, locale: string): string {
  return `${name}___${locale}`;
}

/** Whether `/{language}/…` is a page of `locale` under the site's strategy. */
export function acceptsPrefixed(site: Site, locale: string): boolean {
  switch (site.strategy) {
    case 'prefix':
    case 'prefix_and_default':
      return true;
    case 'prefix_except_default':
      return locale !== site.defaultLocale;
    case 'no_prefix':
      return false;
  }
}

/** Whether an unprefixed path is a page of `locale` under the site's strategy. */
export function acceptsUnprefixed(site: Site, locale: string): boolean {
  switch (site.strategy) {
    case 'prefix':
      return false;
    case 'prefix_except_default':
    case 'prefix_and_default':
      return locale === site.defaultLocale;
    case 'no_prefix':
      return true;
  }
}

/** The site's locale for a route language (case-insensitive), the default locale first; undefined when not allowed. */
export function localeForLanguage(site: Site, language: string): string | undefined {
  const wanted = language.toLowerCase();
  return [site.defaultLocale, ...site.locales].find((locale) => languageOf(locale) === wanted);
}

/** The prefix that puts a path in the default locale when the request's language is not allowed. */
export function defaultLanguagePrefix(site: Site): string {
  return acceptsPrefixed(site, site.defaultLocale) ? `/${languageOf(site.defaultLocale)}` : '';
}
