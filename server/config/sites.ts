import { readFileSync } from 'node:fs';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isValidLocaleCode } from '../../common/locales.ts';
import type { LocaleStrategy, Site, SitesConfig } from '../../common/site.ts';
import { ConfigError } from '../errors.ts';

const HostName = Type.String({ pattern: '^[A-Za-z0-9.-]+$', minLength: 1, maxLength: 253 });
const Strategy = Type.Union([
  Type.Literal('no_prefix'),
  Type.Literal('prefix'),
  Type.Literal('prefix_except_default'),
  Type.Literal('prefix_and_default'),
]);
const RouteRule = Type.Object(
  {
    redirect: Type.Union([
      Type.String({ minLength: 1 }),
      Type.Object({
        to: Type.String({ minLength: 1 }),
        statusCode: Type.Optional(Type.Integer()),
        external: Type.Optional(Type.Boolean()),
      }),
    ]),
  },
  { additionalProperties: false },
);

/** One storefront of `config/sites.json`. Locale codes are only checked for shape here: a bad one is a warning. */
const SiteSchema = Type.Object({
  host: HostName,
  aliases: Type.Optional(Type.Array(HostName)),
  locales: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  defaultLocale: Type.String({ minLength: 1 }),
  url: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
  strategy: Type.Optional(Strategy),
  // Keys are checked in parseSitesConfig (a key pattern alone does not refuse other keys).
  routeRules: Type.Optional(Type.Record(Type.String(), RouteRule)),
  crossOrigin: Type.Optional(Type.Boolean()),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
  // A handle as X allows it: 1 to 15 letters, digits or underscores, with or without its `@`.
  twitter: Type.Optional(Type.String({ pattern: '^@?[A-Za-z0-9_]{1,15}$' })),
  trailingSlash: Type.Optional(Type.Boolean()),
});

const SitesConfigSchema = Type.Object({
  siteName: Type.String({ minLength: 1 }),
  titleSeparator: Type.String(),
  forceHost: Type.Optional(Type.String()),
  fallbackLocale: Type.String({ minLength: 1 }),
  languageCookieName: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]+$' })),
  sites: Type.Array(SiteSchema, { minItems: 1 }),
});

type RawSitesConfig = Static<typeof SitesConfigSchema>;

export interface LoadedSites {
  config: SitesConfig;
  /** Messages to log at start: invalid locale codes and the like. The server still starts. */
  warnings: string[];
}

/** Reads, validates and normalises SITES_CONFIG. Any error names the file, the key and what was expected. */
export function loadSitesConfig(file: string): LoadedSites {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: cannot read sites config: ${(error as Error).message}`);
  }
  return parseSitesConfig(raw, file);
}

/**
 * Keys the schema does not know: read by nothing, so a misspelt one (`trailingslash`) would change
 * nothing without a word. Warned about, not refused: a key added for another tool may stay.
 */
function unknownKeys(value: object, schema: { properties: object }, where: string): string[] {
  const known = Object.keys(schema.properties);
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${where}: unknown key ${JSON.stringify(key)} is ignored (known: ${known.join(', ')})`);
}

/** `/sites/0/routeRules/~1de~1x` (a JSON pointer) → `sites.0.routeRules["/de/x"]`. */
function keyPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  return (
    parts
      .map((part, i) => (/^[A-Za-z0-9_$]+$/.test(part) ? `${i ? '.' : ''}${part}` : `[${JSON.stringify(part)}]`))
      .join('') || '(root)'
  );
}

export function parseSitesConfig(raw: unknown, file: string): LoadedSites {
  const first = Value.Errors(SitesConfigSchema, raw).First();
  if (first) {
    throw new ConfigError(`${file}: ${keyPath(first.path)}: ${first.message} (got ${JSON.stringify(first.value)})`);
  }
  const input = raw as RawSitesConfig;
  const warnings: string[] = [...unknownKeys(input, SitesConfigSchema, file)];
  const seenHosts = new Map<string, string>();
  const sites = input.sites.map((site, i): Site => {
    const where = `${file}: sites.${i}`;
    warnings.push(...unknownKeys(site, SiteSchema, where));
    for (const code of site.locales) {
      // An invalid code is logged and the start goes on: one bad locale must not stop every storefront.
      if (!isValidLocaleCode(code)) warnings.push(`languageCode code ${code} is not valid`);
    }
    if (!site.locales.includes(site.defaultLocale)) {
      throw new ConfigError(
        `${where}.defaultLocale: ${site.defaultLocale} is not one of locales (${site.locales.join(', ')})`,
      );
    }
    for (const path of Object.keys(site.routeRules ?? {})) {
      if (!path.startsWith('/')) {
        throw new ConfigError(
          `${where}.routeRules: key ${JSON.stringify(path)} is not a path: expected it to start with "/"`,
        );
      }
    }
    const host = site.host.toLowerCase();
    const aliases = (site.aliases ?? []).map((a) => a.toLowerCase());
    const names: [string, string][] = [['host', host], ...aliases.map((a, j): [string, string] => [`aliases.${j}`, a])];
    for (const [key, name] of names) {
      const owner = seenHosts.get(name);
      if (owner)
        throw new ConfigError(`${where}.${key}: ${name} is already used by ${owner}: expected a unique host name`);
      seenHosts.set(name, host);
    }
    const multilingual = site.locales.length > 1;
    const strategy: LocaleStrategy = site.strategy ?? (multilingual ? 'prefix' : 'no_prefix');
    return {
      host,
      aliases,
      locales: site.locales,
      defaultLocale: site.defaultLocale,
      url: site.url ?? `https://${host}`,
      strategy,
      routeRules: site.routeRules ?? {},
      crossOrigin: site.crossOrigin ?? false,
      currency: site.currency ?? 'EUR',
      ...(site.description ? { description: site.description } : {}),
      ...(site.twitter ? { twitter: site.twitter.startsWith('@') ? site.twitter : `@${site.twitter}` } : {}),
      trailingSlash: site.trailingSlash ?? false,
    };
  });
  const withoutUrl = input.sites.filter((site) => !site.url).map((site) => site.host.toLowerCase());
  if (withoutUrl.length > 0) {
    warnings.push(
      `No base URL for SEO links (sites[].url) for ${withoutUrl.length} storefront(s): ${withoutUrl.join(', ')}; https://{host} is used`,
    );
  }
  const forceHost = input.forceHost?.toLowerCase() || undefined;
  if (forceHost && !seenHosts.has(forceHost)) {
    throw new ConfigError(`${file}: forceHost: ${forceHost} is not the host or alias of any site`);
  }
  return {
    config: {
      siteName: input.siteName,
      titleSeparator: input.titleSeparator,
      forceHost,
      fallbackLocale: input.fallbackLocale,
      languageCookieName: input.languageCookieName ?? 'lang',
      sites,
    },
    warnings,
  };
}
