import { IMAGE_ROUTE_PREFIX } from '../../common/images.ts';
import { ICON_PATHS } from '../routes/icons.ts';

/**
 * Metric labels come from fixed sets: a raw path or host as a label value would create a time
 * series per URL a crawler invents, and the metrics endpoint would grow without bound.
 */

export const ROUTE_KINDS = [
  'page',
  'payload',
  'redirect',
  'error',
  'asset',
  'image',
  'api',
  'graphql',
  'preview',
] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** What the request-metrics hook knows about a finished request. */
export interface RequestFacts {
  /** The request URL as sent (path and query). */
  url: string;
  /** The matched route's pattern (`/*` for pages); undefined when no route matched (404 handler). */
  route: string | undefined;
  status: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Built assets, demo images (both served by @fastify/static) and the site icons. */
const ASSET_PREFIXES = ['/assets/', '/images/', ...ICON_PATHS];
/** The page route and the not-found handler render storefront pages (or their error pages). */
const PAGE_ROUTE = '/*';
/** `{lang?}/cs/live[/{contentUrl}]`: the live-preview route. */
const LIVE_ROUTE = /(?:^|\/)cs\/live(?:\/[^/]*)?\/?$/;

export function statusClass(status: number): StatusClass {
  const hundreds = Math.trunc(status / 100);
  return hundreds >= 1 && hundreds <= 5 ? (STATUS_CLASSES[hundreds - 1] as StatusClass) : '5xx';
}

/** The kind of a finished request, for the request count and duration metrics. */
export function routeKind({ url, route, status }: RequestFacts): RouteKind {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (ASSET_PREFIXES.some((prefix) => path.startsWith(prefix))) return 'asset';
  // Resized images: their durations (encodes included) apart from files sent as they are.
  if (path.startsWith(IMAGE_ROUTE_PREFIX)) return 'image';
  if (path === '/graphql') return 'graphql';
  if (route !== undefined && route !== PAGE_ROUTE) return 'api';
  if (REDIRECTS.has(status)) return 'redirect';
  if (status >= 400) return 'error';
  if ((q !== -1 && /[?&]live_preview=/.test(url.slice(q))) || LIVE_ROUTE.test(path)) return 'preview';
  if (path.endsWith('/_payload.json')) return 'payload';
  return 'page';
}
