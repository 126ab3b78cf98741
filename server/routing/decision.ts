import type { Site } from '../../common/site.ts';
import { buildLocation, type RedirectStatus } from './redirect.ts';

/** What the router is told about a request, and what it answers. Plain data, no Fastify. */

export interface RequestFacts {
  /** As received, percent-encoded, no query. */
  rawPath: string;
  /** '' or '?a=b' as received. */
  query: string;
  site: Site;
  /** From the sites config. */
  fallbackLocale: string;
  cookieLanguage?: string;
  acceptLanguage?: string;
}

export interface RenderDecision {
  kind: 'render';
  route: 'home' | 'content' | 'live';
  locale: string;
  /** The route language on multilingual domains, null on single-language ones. */
  language: string | null;
  /** Content route only; the home route renders page HOME_PAGE_ID but carries no pageId. */
  pageId?: string;
  /** Content: the decoded segments between `cs` and the last one, joined by `/`. Live: the optional segment. */
  contentUrl?: string;
  /** Content route only: the decoded last segment (`geschirrspueler-4711`), for the title fallback. */
  slug?: string;
  routeName: string;
  /** The locale prefix the request used ('' or '/fr'); pass it to canonicalPagePath. */
  prefix: string;
  /** Set when the locale came from detection (cookie, Accept-Language): the response must vary on them. */
  varyOn?: string[];
  privateCache?: boolean;
  warnings?: string[];
}

export interface RedirectDecision {
  kind: 'redirect';
  status: RedirectStatus;
  location: string;
  varyOn?: string[];
  privateCache?: boolean;
  warnings?: string[];
}

export interface ErrorDecision {
  kind: 'error';
  status: number;
  message: string;
  warnings?: string[];
}

export type RouteDecision = RenderDecision | RedirectDecision | ErrorDecision;

/** The router's part of the error catalogue, worded as the site shows it: one place for every message. */
export const messages = {
  badLanguage: 'Page Not Found',
  invalidLanguage: 'Page Not Found: : invalid language',
  uuidMissing: 'Page UUID is missing',
  noRoute: (path: string) => `Page not found: ${path}`,
  validation: (fullPath: string) => `Page Not Found: ${fullPath}`,
  badRequest: 'Bad Request',
  uriTooLong: 'URI Too Long',
} as const;

/** Detection reads these request headers, so a response chosen by it must say so. */
export const DETECTION_VARY = ['Cookie', 'Accept-Language'] as const;

export function notFound(message: string): ErrorDecision {
  return { kind: 'error', status: 404, message };
}

/** Every internal redirect goes through buildLocation too; an unbuildable target is a bad request. */
export function redirectTo(site: Site, status: RedirectStatus, target: string, detected = false): RouteDecision {
  const location = buildLocation(site, target);
  if (location === null) return { kind: 'error', status: 400, message: messages.badRequest };
  if (!detected) return { kind: 'redirect', status, location };
  return { kind: 'redirect', status, location, varyOn: [...DETECTION_VARY], privateCache: true };
}
