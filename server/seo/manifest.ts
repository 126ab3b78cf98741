import { BACKGROUND_COLOR, ICONS, THEME_COLOR } from '../../common/icons.ts';
import { languageOf } from '../../common/locales.ts';
import type { Site } from '../../common/site.ts';
import { homePath } from '../routing/strategy.ts';

/** A storefront's web app manifest: installs open its home page in its default language. */
export function webManifest(site: Site, siteName: string) {
  return {
    name: siteName,
    short_name: siteName,
    lang: site.defaultLocale,
    dir: 'ltr',
    start_url: homePath(site, site.defaultLocale),
    scope: '/',
    display: 'browser',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: ICONS.svg, sizes: 'any', type: 'image/svg+xml' },
      ...ICONS.png.map((icon) => ({ ...icon, type: 'image/png' })),
    ],
  };
}

/** The route languages of a storefront (`de`, `fr`, `it`), for the paths it serves. */
export function siteLanguages(site: Site): string[] {
  return [...new Set(site.locales.map(languageOf))];
}
