import { isMultilingual, type Site } from '../../common/site.ts';

/** The language cookie lives 365 days, in seconds (the unit of @fastify/cookie's maxAge). */
export const LANGUAGE_COOKIE_MAX_AGE = 31_536_000;

export interface LanguageCookie {
  name: string;
  value: string;
  options: { maxAge: number; path: '/'; sameSite: 'lax' | 'none'; secure: boolean };
}

/** Path root, SameSite lax; None and Secure when the site is embedded cross-origin. */
export function languageCookie(site: Site, language: string, cookieName: string): LanguageCookie {
  return {
    name: cookieName,
    value: language,
    options: {
      maxAge: LANGUAGE_COOKIE_MAX_AGE,
      path: '/',
      sameSite: site.crossOrigin ? 'none' : 'lax',
      secure: site.crossOrigin,
    },
  };
}

/**
 * Never on single-language domains. Only when the cookie is absent or says something
 * else, so a returning visitor's response carries no Set-Cookie and stays cacheable.
 */
export function shouldSetLanguageCookie(site: Site, servedLanguage: string | null, cookieLanguage?: string): boolean {
  return isMultilingual(site) && servedLanguage !== null && servedLanguage !== cookieLanguage;
}
