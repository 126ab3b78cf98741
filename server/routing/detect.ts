import Negotiator from 'negotiator';
import { languageOf } from '../../common/locales.ts';
import type { Site } from '../../common/site.ts';
import { localeForLanguage } from './strategy.ts';

export interface DetectionSignals {
  /** The language cookie's value: a two-letter route language. */
  cookieLanguage?: string;
  acceptLanguage?: string;
  /** From the sites config. */
  fallbackLocale: string;
}

/**
 * First-visit locale for a multilingual domain: the language cookie when its value is
 * allowed on the site, then Accept-Language, then the fallback locale when its language is allowed
 * here, then the site's default locale.
 */
export function detectLocale(site: Site, signals: DetectionSignals): string {
  const fromCookie = signals.cookieLanguage ? localeForLanguage(site, signals.cookieLanguage.trim()) : undefined;
  return (
    fromCookie ??
    fromAcceptLanguage(site, signals.acceptLanguage) ??
    localeForLanguage(site, languageOf(signals.fallbackLocale)) ??
    site.defaultLocale
  );
}

// Longer than any real browser sends; a bigger header is noise, not a preference.
const MAX_ACCEPT_LANGUAGE = 1024;

/**
 * Every exact match (`it-CH`) across the whole list, in the visitor's order of preference, before
 * any match by language part (`de-DE` → the site's `de` locale): `de-DE, it-CH;q=0.8` on a
 * de-CH/fr-CH/it-CH site is Italian, the one locale the visitor named exactly.
 */
function fromAcceptLanguage(site: Site, header: string | undefined): string | undefined {
  if (!header || header.length > MAX_ACCEPT_LANGUAGE) return undefined;
  let preferred: string[];
  try {
    preferred = new Negotiator({ headers: { 'accept-language': header } }).languages();
  } catch {
    return undefined;
  }
  for (const tag of preferred) {
    const exact = site.locales.find((locale) => locale.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
  }
  for (const tag of preferred) {
    const language = tag.split('-')[0] ?? '';
    const byLanguage = /^[a-z]{2}$/i.test(language) ? localeForLanguage(site, language) : undefined;
    if (byLanguage) return byLanguage;
  }
  return undefined;
}
