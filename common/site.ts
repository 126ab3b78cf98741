import { languageOf } from './locales.ts';

/** Storefront configuration as the server uses it after validation. */

export type LocaleStrategy = 'no_prefix' | 'prefix' | 'prefix_except_default' | 'prefix_and_default';

export type RouteRuleRedirect = string | { to: string; statusCode?: number; external?: boolean };

export interface RouteRule {
  redirect: RouteRuleRedirect;
}

export interface Site {
  /** Canonical host name, lower case. */
  host: string;
  aliases: string[];
  locales: string[];
  defaultLocale: string;
  /** Absolute base for links: `https://{host}` unless configured. No trailing slash. */
  url: string;
  strategy: LocaleStrategy;
  routeRules: Record<string, RouteRule>;
  /** SameSite=None; Secure language cookie, for sites embedded cross-origin. */
  crossOrigin: boolean;
  /** ISO 4217 code used for prices on this storefront. */
  currency: string;
  /** What the storefront is, for pages without their own meta description and for its WebSite data. */
  description?: string;
  /** The storefront's X/Twitter handle with its `@` (`twitter:site`). */
  twitter?: string;
  /** Page paths end in `/` (`/de/cs/kueche-200/`); off by default, when they end without one. */
  trailingSlash?: boolean;
}

export interface SitesConfig {
  siteName: string;
  titleSeparator: string;
  forceHost?: string;
  fallbackLocale: string;
  languageCookieName: string;
  sites: Site[];
}

/**
 * The request context: the storefront, language and routing facts of a page request, built once
 * per request (buildPage) and read by what the page is made of instead of the raw storefront.
 */
export interface RequestContext {
  multiLingualDomain: boolean;
  /** The page's language code (`fr`). */
  language: string;
  /** The language codes the storefront serves, in its order. */
  allowedLanguages: string[];
  /** The storefront's canonical host: the host its application configuration is read for. */
  requestHost: string;
}

/** No request context can be had: the request has no storefront, or one that does not serve its locale. */
export class ConfigurationNotAvailable extends Error {
  override name = 'ConfigurationNotAvailable';
}

export function buildRequestContext(site: Site | undefined, locale: string): RequestContext {
  if (!site) throw new ConfigurationNotAvailable('Configuration not available: the request has no storefront');
  if (!site.locales.includes(locale))
    throw new ConfigurationNotAvailable(`Configuration not available: ${site.host} does not serve ${locale}`);
  return {
    multiLingualDomain: isMultilingual(site),
    language: languageOf(locale),
    allowedLanguages: site.locales.map(languageOf),
    requestHost: site.host,
  };
}

export function isMultilingual(site: Site): boolean {
  return site.locales.length > 1;
}
