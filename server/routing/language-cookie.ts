import { isMultilingual, type Site } from '../../common/site.ts';

/** The language cookie lives 365 days, in seconds (the unit of @fastify/cookie's maxAge). */
export const LANGUAGE_COOKIE_MAX_AGE = 31_536_000;

export interface LanguageCookie {
  name: string;
  value: string;
  options: { maxAge: number; path: '/'; sameSite: 'lax' | 'none'; secure: boolean };
}

/**
 * Path root, SameSite lax; None and Secure when cross-origin: the storefront is configured as
 * embedded cross-origin, or this very response loads into a frame of another site (the editor's
 * preview frame), where a lax cookie would be dropped and the language forgotten.
 */
export function languageCookie(
  site: Site,
  language: string,
  cookieName: string,
  request: { crossSiteFrame?: boolean } = {},
): LanguageCookie {
  const crossOrigin = site.crossOrigin || request.crossSiteFrame === true;
  return {
    name: cookieName,
    value: language,
    options: {
      maxAge: LANGUAGE_COOKIE_MAX_AGE,
      path: '/',
      sameSite: crossOrigin ? 'none' : 'lax',
      secure: crossOrigin,
    },
  };
}

/**
 * Whether the request loads a frame inside a page of another site, from the browser's Fetch
 * Metadata. A top-level navigation from another storefront's domain (the country selector) is not
 * one: a lax cookie is set on those.
 */
export function isCrossSiteFrame(headers: Record<string, string | string[] | undefined>): boolean {
  const dest = headers['sec-fetch-dest'];
  return headers['sec-fetch-site'] === 'cross-site' && (dest === 'iframe' || dest === 'frame');
}

/**
 * Never on single-language domains. Only when the cookie is absent or says something
 * else, so a returning visitor's response carries no Set-Cookie and stays cacheable.
 */
export function shouldSetLanguageCookie(site: Site, servedLanguage: string | null, cookieLanguage?: string): boolean {
  return isMultilingual(site) && servedLanguage !== null && servedLanguage !== cookieLanguage;
}
