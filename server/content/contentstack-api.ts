import { isRecord } from '../../common/is-record.ts';
/**
 * The wire shapes of Contentstack's Content Delivery and Preview APIs, as far as the site uses them:
 * the documented hosts per region, the stack's locale codes, the request paths and parameters, and
 * the answers' envelopes. Pure: no I/O, so every rule here has a table test.
 */

export const CONTENTSTACK_REGIONS = ['us', 'eu', 'azure-na', 'azure-eu', 'gcp-na'] as const;
export type ContentstackRegion = (typeof CONTENTSTACK_REGIONS)[number];

/** The documented Delivery (CDN) and Preview (REST) base URLs of each region. */
const HOSTS: Record<ContentstackRegion, { delivery: string; preview: string }> = {
  us: { delivery: 'https://cdn.contentstack.io', preview: 'https://rest-preview.contentstack.com' },
  eu: { delivery: 'https://eu-cdn.contentstack.com', preview: 'https://eu-rest-preview.contentstack.com' },
  'azure-na': {
    delivery: 'https://azure-na-cdn.contentstack.com',
    preview: 'https://azure-na-rest-preview.contentstack.com',
  },
  'azure-eu': {
    delivery: 'https://azure-eu-cdn.contentstack.com',
    preview: 'https://azure-eu-rest-preview.contentstack.com',
  },
  'gcp-na': {
    delivery: 'https://gcp-na-cdn.contentstack.com',
    preview: 'https://gcp-na-rest-preview.contentstack.com',
  },
};

/** The base URLs to call: an explicit host wins over the region's (a proxy, or a local test server). */
export function contentstackHosts(options: { region?: ContentstackRegion; host?: string; previewHost?: string }): {
  delivery: string;
  preview: string;
} {
  const region = HOSTS[options.region ?? 'us'];
  // The SDKs' examples write hosts with the API version (`…/v3`); the paths here carry it already.
  const base = (url: string) => url.replace(/\/+$/, '').replace(/\/v3$/, '');
  return { delivery: base(options.host ?? region.delivery), preview: base(options.previewHost ?? region.preview) };
}

/** Stack locale codes are the site's in lower case: `de-CH` → `de-ch`. */
export const stackLocale = (locale: string): string => locale.toLowerCase();

/** The site's code of a stack locale (`de-ch` → `de-CH`), or undefined when it is not of that shape. */
export function siteLocale(code: string): string | undefined {
  const match = /^([a-z]{2})-([a-z]{2})$/i.exec(code);
  return match ? `${match[1]?.toLowerCase()}-${match[2]?.toUpperCase()}` : undefined;
}

export const PAGE_TYPE = 'page';
export const APP_CONFIG_TYPE = 'application_configuration';
export const TEMPLATE_ZONES = ['header_components', 'body_components', 'footer_components'] as const;

/** `include[]` is repeated, which a plain query object cannot say: it goes into the path. */
function withIncludes(path: string, includes: readonly string[]): string {
  return includes.length === 0
    ? path
    : `${path}?${includes.map((i) => `include[]=${encodeURIComponent(i)}`).join('&')}`;
}

const entriesPath = (type: string) => `/v3/content_types/${encodeURIComponent(type)}/entries`;

/** A page by its `uuid` field, with its template and the template's components: one request. */
export function pageQueryPath(): string {
  return withIncludes(entriesPath(PAGE_TYPE), ['template', ...TEMPLATE_ZONES.map((zone) => `template.${zone}`)]);
}

/** One entry by uid; a template comes with its components. */
export function entryPath(type: string, uid: string): string {
  const path = `${entriesPath(type)}/${encodeURIComponent(uid)}`;
  return withIncludes(path, type.endsWith('_template') ? TEMPLATE_ZONES : []);
}

/** Every entry of a type, a page of the listing at a time. */
export function listPath(type: string): string {
  return entriesPath(type);
}

/** The largest page of a listing the Delivery API hands out. */
export const LIST_LIMIT = 100;

type Json = Record<string, unknown>;

/** `{ entries: [...] }`, or null when the answer is not that envelope (an upstream fault). */
export function entriesOf(body: unknown): { entries: unknown[]; count?: number } | null {
  if (!isRecord(body) || !Array.isArray(body.entries)) return null;
  return typeof body.count === 'number' ? { entries: body.entries, count: body.count } : { entries: body.entries };
}

/** `{ entry: {...} }`, or null when the answer is not that envelope. */
export function entryOf(body: unknown): Json | null {
  return isRecord(body) && isRecord(body.entry) ? body.entry : null;
}

/**
 * The included template of a page entry, when the page's `template` reference came back resolved
 * (an entry with fields, not just `uid` and `_content_type_uid`).
 */
export function includedTemplate(page: unknown): Json | null {
  const first = isRecord(page) && Array.isArray(page.template) ? page.template[0] : undefined;
  if (!isRecord(first)) return null;
  return TEMPLATE_ZONES.some((zone) => zone in first) ? first : null;
}

/**
 * The Delivery API answers a missing entry with 422 and error code 141 (or 404 on some routes):
 * either is "no such entry", not a fault.
 */
export function isMissingEntry(status: number | undefined, data: unknown): boolean {
  if (status === 404) return true;
  return status === 422 && isRecord(data) && data.error_code === 141;
}
