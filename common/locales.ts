/** The 29 locales the storefronts are written in. */
export const SUPPORTED_LOCALES = [
  'cs-CZ',
  'da-DK',
  'de-AT',
  'de-CH',
  'de-DE',
  'de-LU',
  'en-GB',
  'en-IE',
  'en-US',
  'es-ES',
  'fi-FI',
  'fr-BE',
  'fr-CH',
  'fr-FR',
  'fr-LU',
  'hu-HU',
  'it-CH',
  'it-IT',
  'nl-BE',
  'nl-NL',
  'no-NO',
  'pl-PL',
  'pt-PT',
  'ro-RO',
  'sk-SK',
  'sl-SI',
  'sv-SE',
  'hr-HR',
  'el-GR',
] as const;

export type LocaleCode = string;

/** A locale code: two lowercase letters, a hyphen, two uppercase letters (`de-CH`). */
export const LOCALE_CODE = /^[a-z]{2}-[A-Z]{2}$/;

export function isValidLocaleCode(code: string): boolean {
  return LOCALE_CODE.test(code);
}

/** `de-CH` → `de`: the route language of a locale on a multilingual domain. */
export function languageOf(locale: LocaleCode): string {
  return locale.slice(0, 2).toLowerCase();
}

/** `de-CH` → `de_CH`, the Open Graph form. */
export function ogLocale(locale: LocaleCode): string {
  return locale.replace('-', '_');
}

/**
 * `no-NO` is the spec's code for Norwegian; browsers and Intl know the written language as `nb`.
 * Intl falls back sensibly for the rest, so only this one needs a hint.
 */
export function intlLocale(locale: LocaleCode): string {
  return locale === 'no-NO' ? 'nb-NO' : locale;
}
