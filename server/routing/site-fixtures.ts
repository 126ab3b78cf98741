import type { LocaleStrategy, Site } from '../../common/site.ts';
import type { RouteDecision } from './decision.ts';

/** Test helpers only: the two domain kinds (single- and multi-language), and a one-line view of a decision. */

export const STRATEGIES: readonly LocaleStrategy[] = [
  'prefix',
  'prefix_except_default',
  'prefix_and_default',
  'no_prefix',
];

export function makeSite(overrides: Partial<Site> = {}): Site {
  const host = overrides.host ?? 'www.halden.ch';
  return {
    host,
    aliases: ['ch.localhost'],
    locales: ['de-CH', 'fr-CH', 'it-CH'],
    defaultLocale: 'de-CH',
    url: `https://${host}`,
    strategy: 'prefix',
    routeRules: {},
    crossOrigin: false,
    currency: 'CHF',
    ...overrides,
  };
}

/** www.halden.ch: de-CH, fr-CH, it-CH, default de-CH. */
export function multilingualSite(overrides: Partial<Site> = {}): Site {
  return makeSite(overrides);
}

/** www.halden.de: de-DE only. */
export function singleLanguageSite(overrides: Partial<Site> = {}): Site {
  return makeSite({
    host: 'www.halden.de',
    aliases: ['de.localhost'],
    locales: ['de-DE'],
    defaultLocale: 'de-DE',
    url: 'https://www.halden.de',
    strategy: 'no_prefix',
    currency: 'EUR',
    ...overrides,
  });
}

/**
 * `render content de-CH de 4711 kueche` · `301 /de/cs/x-1` · `302 /de vary` · `404 Page Not Found`.
 * Warnings are left out; rows that care check them separately.
 */
export function describe(decision: RouteDecision): string {
  switch (decision.kind) {
    case 'render': {
      const parts = ['render', decision.route, decision.locale, decision.language ?? '-', `prefix=${decision.prefix}`];
      if (decision.pageId !== undefined) parts.push(`id=${decision.pageId}`);
      if (decision.contentUrl !== undefined) parts.push(`url=${decision.contentUrl}`);
      if (decision.varyOn) parts.push(`vary=${decision.varyOn.join(',')}`, `private=${decision.privateCache}`);
      return parts.join(' ');
    }
    case 'redirect': {
      const vary = decision.varyOn ? ` vary=${decision.varyOn.join(',')} private=${decision.privateCache}` : '';
      return `${decision.status} ${decision.location}${vary}`;
    }
    case 'error':
      return `${decision.status} ${decision.message}`;
  }
}
